import { createHash, timingSafeEqual } from 'node:crypto'
import type { Hono, MiddlewareHandler } from 'hono'
import { ApiError } from '../errors.ts'
import type { HonoEnv } from '../http/context.ts'
import { methodLabel, routeTemplate } from '../http/route-template.ts'
import type { ServerMetrics } from './registry.ts'

/** The path Prometheus scrapes. */
export const METRICS_PATH = '/metrics'

/**
 * Counts and times every request: one counter increment and one histogram
 * observation each. The route label is the template of the route that
 * answered (`/api/v1/apps/:app_id`), read once the handler is done; a request
 * no route matched (404s of unknown paths, CORS preflights answered by the
 * middleware) is 'unmatched'. Raw paths never become labels: they would hold
 * ids and tokens, and a scanner would grow a series per URL.
 */
export function httpMetrics(metrics: ServerMetrics): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const started = performance.now()
    try {
      await next()
    } finally {
      const seconds = (performance.now() - started) / 1000
      metrics.request(methodLabel(c.req.method), routeTemplate(c), c.res.status, seconds)
    }
  }
}

const digest = (value: string) => createHash('sha256').update(value).digest()

/**
 * `GET /metrics` in Prometheus' text format, behind a bearer token (compared
 * in constant time: both sides hashed to 32 bytes first) or, with `public`,
 * open. Not registered at all when metrics are off: the path is then a 404
 * like any unknown one.
 */
export function registerMetricsRoute(
  app: Hono<HonoEnv>,
  metrics: ServerMetrics,
  access: { token: string } | { public: true },
): void {
  const { registry } = metrics
  if (!registry) throw new Error('registerMetricsRoute needs metrics on')
  const expected = 'token' in access ? digest(access.token) : null
  app.get(METRICS_PATH, async (c) => {
    if (expected) {
      const match = c.req.header('authorization')?.match(/^Bearer\s+(\S+)$/i)
      if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected))
        return c.json(new ApiError('UNAUTHORIZED').toBody(), 401, {
          'www-authenticate': 'Bearer',
        })
    }
    const text = await registry.metrics()
    return c.body(text, 200, {
      'content-type': registry.contentType,
      'cache-control': 'no-store',
    })
  })
}
