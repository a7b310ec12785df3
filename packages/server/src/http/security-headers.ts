import type { Context } from 'hono'
import type { HonoEnv, ResolvedConfig } from './context.ts'

/** Headers every answer carries: nosniff, framing, referrer, HSTS on https, no-store on the API. */
export function securityHeaders(config: ResolvedConfig) {
  return async (c: Context<HonoEnv>, next: () => Promise<void>) => {
    await next()
    const h = c.res.headers
    h.set('X-Content-Type-Options', 'nosniff')
    // The API and the dev pages are never framed; the enclave page sets its own
    // CSP whose frame-ancestors lists the app's origins (security bar 43, 48).
    if (!h.has('Content-Security-Policy'))
      h.set('Content-Security-Policy', "frame-ancestors 'none'")
    const framable = /frame-ancestors (?!'none')/.test(h.get('Content-Security-Policy') ?? '')
    if (!framable) h.set('X-Frame-Options', 'DENY')
    h.set('Referrer-Policy', 'no-referrer')
    if (config.https) h.set('Strict-Transport-Security', 'max-age=63072000; includeSubDomains')
    if (!h.has('Cache-Control') && c.req.path.startsWith('/api/'))
      h.set('Cache-Control', 'no-store')
  }
}
