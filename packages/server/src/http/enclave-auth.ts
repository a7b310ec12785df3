import type { Context } from 'hono'
import { ApiError } from '../errors.ts'
import { verifyEnclaveProof } from '../sessions/enclave-proof.ts'
import { authenticateRequest } from '../sessions/service.ts'
import type { AuthContext, HonoEnv, Services } from './context.ts'

/**
 * The caller of an `auth: 'enclave'` route (a key route: docs/security.md
 * "Key routes answer only to the enclave"). Three checks, in order:
 *
 * 1. the Origin is one of this server's own (the enclave page's), from
 *    configuration; the host page's origin, any app origin and a missing
 *    Origin (a script outside a browser) are 403 ORIGIN_NOT_ALLOWED;
 * 2. the bearer access token and its live session (401 UNAUTHORIZED);
 * 3. the `dpop` proof, signed by the enclave key the session was bound to at
 *    login (401 ENCLAVE_PROOF_INVALID; sessions/enclave-proof.ts).
 *
 * @example
 * const auth = await authenticateEnclaveRequest(c, services, bearerToken(c), app.id)
 */
export async function authenticateEnclaveRequest(
  c: Context<HonoEnv>,
  services: Services,
  token: string | undefined,
  appId: string,
): Promise<AuthContext> {
  const origin = c.req.header('origin')
  if (origin === undefined || !services.config.ownOrigins.includes(origin))
    throw new ApiError('ORIGIN_NOT_ALLOWED')
  const auth = await authenticateRequest(services, token, appId)
  await verifyEnclaveProof(c, services, {
    token: token ?? '',
    enclaveKeyThumbprint: auth.enclaveKeyThumbprint,
  })
  return auth
}
