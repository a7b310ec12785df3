import { z } from 'zod'
import type { RouteDefinition } from '../http/route.ts'
import { listAdminAudit } from './audit.ts'
import { APP_EVENT_TYPES, listAppEvents } from './events.ts'
import { CONSOLE_API } from './guard.ts'
import { APP, anything, appOf, consoleRoute, cursorSchema } from './route-kit.ts'

// The console's two logs (docs/console.md "Events", "Audit log"): what
// happened in an app, and what admins changed; both newest first, 50 a page.

export const consoleEventsRoute = consoleRoute({
  method: 'get',
  path: `${APP}/events`,
  summary: "The app's events, newest first: sign-ups, logins, key releases",
  query: z.strictObject({
    cursor: cursorSchema.optional(),
    type: z.enum(APP_EVENT_TYPES).optional(),
  }),
  response: anything,
  handler: async ({ c, services, query }) => {
    const app = await appOf(services, c.req.param('app_id'))
    return { ...(await listAppEvents(services.db, app.id, query)) }
  },
})

export const consoleAuditRoute = consoleRoute({
  method: 'get',
  path: `${CONSOLE_API}/audit`,
  summary: 'Every change made in the console, newest first',
  query: z.strictObject({ cursor: cursorSchema.optional() }),
  response: anything,
  handler: async ({ services, query }) => ({ ...(await listAdminAudit(services.db, query)) }),
})

export const CONSOLE_LOG_ROUTES: RouteDefinition[] = [consoleEventsRoute, consoleAuditRoute]
