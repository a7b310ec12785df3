import { FARCASTER_CHANNEL_TOKEN_HEADER, Header } from '@latchkey/protocol'
import type { Context } from 'hono'
import type { HonoEnv, Services } from './context.ts'

const ALLOWED_HEADERS = [
  Header.appId,
  Header.clientId,
  Header.analyticsId,
  Header.client,
  Header.enclaveKey,
  'authorization',
  'content-type',
  FARCASTER_CHANNEL_TOKEN_HEADER,
]

/** CORS that reflects only allowlisted origins (security bar 47). */
export function cors(services: Services) {
  return async (c: Context<HonoEnv>, next: () => Promise<void>) => {
    // The admin console answers its own origin only (console/guard.ts): no CORS at all.
    if (c.req.path === '/console' || c.req.path.startsWith('/console/')) return next()
    const origin = c.req.header('origin')
    if (c.req.method === 'OPTIONS' && c.req.header('access-control-request-method')) {
      // Preflights carry no app id value: allow an origin some app allows; the
      // real request is then checked against its own app.
      const headers = new Headers({ Vary: 'Origin' })
      if (origin && (await services.apps.allOrigins()).has(origin)) {
        headers.set('Access-Control-Allow-Origin', origin)
        headers.set('Access-Control-Allow-Credentials', 'true')
        headers.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS')
        headers.set('Access-Control-Allow-Headers', ALLOWED_HEADERS.join(', '))
        headers.set('Access-Control-Max-Age', '600')
      }
      c.res = new Response(null, { status: 204, headers })
      return
    }
    await next()
    c.res.headers.append('Vary', 'Origin')
    if (!origin) return
    const app = c.get('app')
    const allowed = app
      ? app.allowedOrigins.includes(origin)
      : (await services.apps.allOrigins()).has(origin)
    if (allowed) {
      c.res.headers.set('Access-Control-Allow-Origin', origin)
      c.res.headers.set('Access-Control-Allow-Credentials', 'true')
      // A 429's countdown, also in its body's `retry_after` (errors.ts `limited`);
      // the request id a support request can quote (logging/access-log.ts).
      c.res.headers.set('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id')
    }
  }
}
