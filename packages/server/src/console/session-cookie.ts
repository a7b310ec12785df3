import type { Context } from 'hono'
import { deleteCookie, getCookie, setCookie } from 'hono/cookie'
import type { HonoEnv, Services } from '../http/context.ts'
import { CONSOLE_COOKIE, CONSOLE_COOKIE_PATH } from './sessions.ts'

// The console session cookie (docs/console.md "Security model"): HttpOnly (no
// script reads it), SameSite=Strict (no other site's page sends it), Secure
// when the server is served over https, and scoped to /console so the API
// and the enclave pages never receive it. No Max-Age: it goes with the
// browser session, and the server ends it after 12 h idle anyway.

const attributes = (services: Services) =>
  ({
    path: CONSOLE_COOKIE_PATH,
    httpOnly: true,
    secure: services.config.https,
    sameSite: 'Strict',
  }) as const

export function setSessionCookie(c: Context<HonoEnv>, services: Services, value: string): void {
  setCookie(c, CONSOLE_COOKIE, value, attributes(services))
}

/** Clears the cookie; the value it held, if any. */
export function clearSessionCookie(c: Context<HonoEnv>, services: Services): string | undefined {
  const value = getCookie(c, CONSOLE_COOKIE)
  deleteCookie(c, CONSOLE_COOKIE, attributes(services))
  return value
}
