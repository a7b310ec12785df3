import type { Context } from 'hono'
import { clientIp } from '../http/client-ip.ts'
import type { HonoEnv, Services } from '../http/context.ts'
import { limitPerIp } from '../rate-limit/limit-per-ip.ts'

/**
 * Counts one call of a key route — wallet creation and import, add, the auth
 * share (signing, export), the recovery material, set recovery, the
 * cloud-recovery consents, account deletion — against the caller IP's shared budget
 * (`rateLimits.walletKeyRequestsPerIp`); 429 TOO_MANY_REQUESTS past it.
 * Runs after the session is checked, before any share is read or written.
 *
 * @example
 * handler: async ({ c, services, auth, body }) => {
 *   await limitWalletKeyRequests(c, services)
 *   return releaseAuthShare(services, auth, body.entropy_id)
 * }
 */
export function limitWalletKeyRequests(c: Context<HonoEnv>, services: Services): Promise<void> {
  return limitPerIp(
    services,
    'wallet-key',
    services.config.rateLimits.walletKeyRequestsPerIp,
    clientIp(c, services),
  )
}
