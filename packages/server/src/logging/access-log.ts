import { randomUUID } from 'node:crypto'
import { Header, routes } from '@latchkey/protocol'
import type { MiddlewareHandler } from 'hono'
import type { HonoEnv } from '../http/context.ts'
import { methodLabel, routeTemplate } from '../http/route-template.ts'
import { METRICS_PATH } from '../metrics/http.ts'
import type { LogFields, Logger } from './logger.ts'
import { runWithRequestId } from './request-context.ts'

/** Request header a proxy may set, and response header every answer carries. */
export const REQUEST_ID_HEADER = 'x-request-id'

/**
 * An incoming id is kept only when it is a short plain token: it is written
 * into every line of the request, so a client must not be able to forge line
 * breaks, JSON or megabytes there.
 */
const SANE_TOKEN = /^[A-Za-z0-9._:-]{1,64}$/

/** Load balancer and Prometheus probes: every few seconds, so `debug` when they succeed. */
const PROBES = new Set<string>([routes.health, routes.ready, METRICS_PATH])

/**
 * Gives each request an id (the caller's `x-request-id` when it is a sane
 * token, so a proxy's id joins its own log to ours; else a new UUID), runs
 * the request with it in scope (logging/request-context.ts), answers it in
 * `x-request-id`, and writes one access line: id, method, route template,
 * status, duration, app id. Never a header's value other than the app id and
 * request id, a body, the query string or the client IP (docs/operations.md
 * "Logs").
 */
export function requestLog(logger: Logger): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const started = performance.now()
    const incoming = c.req.header(REQUEST_ID_HEADER)
    const requestId = incoming && SANE_TOKEN.test(incoming) ? incoming : randomUUID()
    try {
      await runWithRequestId(requestId, next)
    } finally {
      c.res.headers.set(REQUEST_ID_HEADER, requestId)
      const route = routeTemplate(c)
      const status = c.res.status
      const fields: LogFields = {
        request_id: requestId,
        method: methodLabel(c.req.method),
        route,
        status,
        duration_ms: Math.round((performance.now() - started) * 10) / 10,
      }
      const appId = c.req.header(Header.appId)
      if (appId && SANE_TOKEN.test(appId)) fields.app_id = appId
      if (PROBES.has(route) && status < 400) logger.debug?.('request', fields)
      else logger.info('request', fields)
    }
  }
}
