import { Header } from '@latchkey/protocol'
import { Hono } from 'hono'
import { describe, expect, it } from 'vitest'
import type { HonoEnv } from '../http/context.ts'
import { requestLog } from './access-log.ts'
import type { LogFields, Logger } from './logger.ts'
import { withRequestId } from './request-context.ts'

// One access line per request, with the request id the response carries:
// the route's template (never the raw path or query string, where OAuth
// codes and states travel), the status, the duration and the app id.
const recorded: Array<{ level: string; message: string; fields?: LogFields }> = []
const record =
  (level: string) =>
  (message: string, fields?: LogFields): void => {
    recorded.push({ level, message, fields })
  }
const logger: Logger = withRequestId({
  debug: record('debug'),
  info: record('info'),
  warn: record('warn'),
  error: record('error'),
})
const app = new Hono<HonoEnv>()
app.use('*', requestLog(logger))
app.get('/api/v1/apps/:app_id', (c) => {
  logger.warn('inside the handler')
  return c.json({ id: c.req.param('app_id') })
})
app.get('/health', (c) => c.json({ status: 'ok' }))

const access = () => recorded.filter((r) => r.message === 'request').map((r) => r.fields ?? {})

describe('the access line', () => {
  it('names the route template, and carries the id the response echoes', async () => {
    recorded.length = 0
    const res = await app.request('/api/v1/apps/app123?code=482913&state=s3cr3t', {
      headers: { 'x-request-id': 'lb-1:a.b_c', [Header.appId]: 'app123' },
    })
    expect(res.headers.get('x-request-id')).toBe('lb-1:a.b_c')
    expect(recorded[0]).toMatchObject({ level: 'warn', fields: { request_id: 'lb-1:a.b_c' } })
    expect(access()).toEqual([
      {
        request_id: 'lb-1:a.b_c',
        method: 'GET',
        route: '/api/v1/apps/:app_id',
        status: 200,
        duration_ms: expect.any(Number),
        app_id: 'app123',
      },
    ])
    expect(JSON.stringify(recorded)).not.toMatch(/482913|s3cr3t/)
  })

  it('replaces an incoming id that is not a short plain token, and drops an odd app id', async () => {
    for (const hostile of ['a'.repeat(65), 'two words', '{"level":"fatal"}']) {
      recorded.length = 0
      const res = await app.request('/nowhere', {
        headers: { 'x-request-id': hostile, [Header.appId]: hostile },
      })
      const id = res.headers.get('x-request-id')
      expect(id).toMatch(/^[0-9a-f-]{36}$/)
      expect(access()).toEqual([
        expect.objectContaining({ request_id: id, route: 'unmatched', status: 404 }),
      ])
      expect(access()[0]).not.toHaveProperty('app_id')
    }
  })

  it('logs successful probes at debug, so a balancer polling /health is not noise', async () => {
    recorded.length = 0
    await app.request('/health')
    expect(recorded).toMatchObject([{ level: 'debug', message: 'request' }])
  })
})
