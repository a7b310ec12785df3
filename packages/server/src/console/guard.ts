import type { Context } from 'hono'
import { getCookie } from 'hono/cookie'
import { ApiError } from '../errors.ts'
import type { HonoEnv, Services } from '../http/context.ts'
import { CONSOLE_COOKIE, type ConsoleAdmin, readConsoleSession } from './sessions.ts'

// The checks in front of every /console/api call (docs/console.md "Security
// model"). The console is served from the server's own origin; its cookie is
// SameSite=Strict, but an app's page on another port of the same host is
// "same-site", so the origin is checked too: a present Origin must be one of
// the server's own (configuration, never the Host header), Fetch Metadata
// must not say cross-origin, and a change needs a header no form and no
// simple cross-origin request can send.

/** Every console call that changes something carries it, with the value `1`. */
export const CONSOLE_CSRF_HEADER = 'x-latchkey-console'
export const CONSOLE_API = '/console/api'
/** The one console call that needs no session. */
export const CONSOLE_LOGIN_PATH = `${CONSOLE_API}/login`

const admins = new WeakMap<Request, ConsoleAdmin>()

/** The signed-in admin of a console API request (after {@link consoleGuard}). */
export function consoleAdminOf(c: Context<HonoEnv>): ConsoleAdmin {
  const admin = admins.get(c.req.raw)
  if (!admin) throw new ApiError('UNAUTHORIZED', 'Sign in to the console')
  return admin
}

const CROSS_ORIGIN = 'The console API answers only the console page itself'

/**
 * Middleware for `/console/api/*`: refuses other origins (403
 * ORIGIN_NOT_ALLOWED), a change without {@link CONSOLE_CSRF_HEADER} (403),
 * and — except on sign-in — a request without a live console session (401
 * UNAUTHORIZED). Answers are never cached.
 */
export function consoleGuard(services: Services) {
  return async (c: Context<HonoEnv>, next: () => Promise<void>) => {
    c.header('Cache-Control', 'no-store')
    const origin = c.req.header('origin')
    if (origin !== undefined && !services.config.ownOrigins.includes(origin))
      throw new ApiError('ORIGIN_NOT_ALLOWED', CROSS_ORIGIN)
    const site = c.req.header('sec-fetch-site')
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      throw new ApiError('ORIGIN_NOT_ALLOWED', CROSS_ORIGIN)
    const changes = c.req.method !== 'GET' && c.req.method !== 'HEAD'
    if (changes && c.req.header(CONSOLE_CSRF_HEADER) !== '1')
      throw new ApiError(
        'ORIGIN_NOT_ALLOWED',
        `A console call that changes something needs the ${CONSOLE_CSRF_HEADER}: 1 header`,
      )
    if (c.req.path !== CONSOLE_LOGIN_PATH) {
      const value = getCookie(c, CONSOLE_COOKIE)
      const admin = value ? await readConsoleSession(services.db, value, services.now()) : null
      if (!admin) throw new ApiError('UNAUTHORIZED', 'Sign in to the console')
      admins.set(c.req.raw, admin)
    }
    await next()
  }
}
