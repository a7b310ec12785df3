import { analyticsEventRequestSchema, Header, routes, successSchema } from '@latchkey/protocol'
import { ApiError } from '../errors.ts'
import { defineRoute } from '../http/route.ts'
import { newId } from '../ids.ts'

/** Largest stored event payload (serialised JSON). */
export const MAX_ANALYTICS_PAYLOAD_BYTES = 8 * 1024

export const analyticsEventRoute = defineRoute({
  method: 'post',
  path: routes.analyticsEvents,
  summary: 'Record a client analytics event',
  tags: ['analytics'],
  auth: 'none',
  body: analyticsEventRequestSchema,
  response: successSchema,
  handler: async ({ c, services, app, body }) => {
    const payload = JSON.stringify(body.payload ?? {})
    if (Buffer.byteLength(payload) > MAX_ANALYTICS_PAYLOAD_BYTES)
      throw new ApiError('INVALID_PAYLOAD', 'The event payload is too large', [
        { path: 'payload', message: `At most ${MAX_ANALYTICS_PAYLOAD_BYTES} bytes` },
      ])
    const clientId = body.client_id ?? c.req.header(Header.clientId)?.slice(0, 100) ?? null
    await services.db
      .insertInto('analytics_events')
      .values({
        id: newId(),
        app_id: app.id,
        event_name: body.event_name,
        client_id: clientId,
        payload,
        created_at: services.now(),
      })
      .execute()
    return { success: true as const }
  },
})
