import { Header } from '@latchkey/protocol'
import type { Context } from 'hono'
import { ApiError, limited } from '../errors.ts'
import { clientIp } from '../http/client-ip.ts'
import type { HonoEnv, Services } from '../http/context.ts'
import { ipBucket } from '../rate-limit/limit-per-ip.ts'
import { matchAppSecret } from './app-secrets.ts'
import type { AppRecord } from './service.ts'

/**
 * Failed app-secret checks one client address may make against one app per
 * window; past it, 429 before the secret is even looked at. Counted per app
 * AND address: the app id is public, so a count per app alone would let
 * anyone lock the app's own backend out with a few wrong guesses (a 256-bit
 * secret is not guessed anyway; the limit keeps a misconfigured or hostile
 * caller from costing a database read a request).
 */
export const APP_AUTH_FAILURES = { limit: 30, windowMs: 10 * 60_000 } as const

/**
 * Headers a browser adds (Origin on cross-origin and non-GET requests; the
 * Fetch Metadata Site and Dest on every request to a secure origin) and a
 * server-side client does not. Not `sec-fetch-mode`: Node's own fetch
 * (undici) sends that one too.
 */
const BROWSER_HEADERS = ['origin', 'sec-fetch-site', 'sec-fetch-dest'] as const

/** `appId` and `secret` of an `Authorization: Basic base64(appId:secret)` header, or null. */
export function readBasicCredentials(
  header: string | undefined,
): { appId: string; secret: string } | null {
  const encoded = header?.match(/^Basic\s+([A-Za-z0-9+/=_-]+)\s*$/i)?.[1]
  if (!encoded) return null
  const decoded = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = decoded.indexOf(':')
  if (colon <= 0 || colon === decoded.length - 1) return null
  return { appId: decoded.slice(0, colon), secret: decoded.slice(colon + 1) }
}

/**
 * Authenticates an app backend (`auth: 'app'` routes, http/route.ts): the
 * request must come from a server (no Origin, no Fetch Metadata: 403
 * APP_SECRET_FROM_BROWSER, before the secret is read), carry `Authorization:
 * Basic base64(appId:secret)` and the `latchkey-app-id` header naming the same
 * app (401 APP_AUTH_REQUIRED), and the secret must be one of the app's live
 * secrets (401 INVALID_APP_SECRET), within {@link APP_AUTH_FAILURES}.
 *
 * @example
 * const app = await authenticateAppRequest(c, services)
 */
export async function authenticateAppRequest(
  c: Context<HonoEnv>,
  services: Services,
): Promise<AppRecord> {
  if (BROWSER_HEADERS.some((name) => c.req.header(name) !== undefined))
    throw new ApiError('APP_SECRET_FROM_BROWSER')
  const credentials = readBasicCredentials(c.req.header('authorization'))
  if (!credentials) throw new ApiError('APP_AUTH_REQUIRED')
  const headerAppId = c.req.header(Header.appId)
  if (headerAppId !== credentials.appId)
    throw new ApiError(
      'APP_AUTH_REQUIRED',
      `The ${Header.appId} header must name the app of the credentials`,
    )
  const app = await services.apps.get(credentials.appId)
  if (!app) throw new ApiError('APP_NOT_FOUND')
  c.set('app', app)
  const key = `app-auth-failures:${app.id}:${ipBucket(clientIp(c, services))}`
  const { limit, windowMs } = APP_AUTH_FAILURES
  if ((await services.limiter.peek(key)) >= limit) {
    const counted = await services.limiter.hit(key, limit, windowMs)
    throw limited('TOO_MANY_REQUESTS', counted.resetAt, services.now())
  }
  const secretId = await matchAppSecret(services.db, app.id, credentials.secret, services.now())
  if (secretId) return app
  const counted = await services.limiter.hit(key, limit, windowMs)
  if (!counted.allowed) throw limited('TOO_MANY_REQUESTS', counted.resetAt, services.now())
  throw new ApiError('INVALID_APP_SECRET')
}
