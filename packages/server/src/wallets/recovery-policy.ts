import type { RecoveryMaterial } from '@latchkey/protocol'
import { type AppRecord, toAppConfig } from '../apps/service.ts'
import { ApiError } from '../errors.ts'

/**
 * The app's recovery policy (embedded_wallet_config) for new recovery
 * material, on create and on set-recovery:
 * - `mode: 'user-controlled-server-wallets-only'` (spec 02 §5: user-owned
 *   recovery "in server-wallet-only mode is unsupported") allows automatic
 *   recovery only: a password or cloud backup is 400
 *   USER_OWNED_RECOVERY_UNSUPPORTED;
 * - `require_user_owned_recovery_on_create` refuses automatic recovery;
 * - a user-owned method must be offered (`user_owned_recovery_options`), and
 *   a cloud one (Google Drive, iCloud) also needs the app's credentials for
 *   that provider: offered but not configured is 400
 *   CLOUD_RECOVERY_NOT_CONFIGURED.
 * Recovering a wallet that already has its material is never refused here.
 */
export function assertRecoveryAllowed(app: AppRecord, method: RecoveryMaterial['method']): void {
  const config = toAppConfig(app).embedded_wallet_config
  if (method === 'latchkey') {
    if (config.require_user_owned_recovery_on_create)
      throw new ApiError('INVALID_PAYLOAD', 'This app requires a user-owned recovery method')
    return
  }
  if (config.mode === 'user-controlled-server-wallets-only')
    throw new ApiError(
      'USER_OWNED_RECOVERY_UNSUPPORTED',
      `This app's embedded wallet mode (user-controlled-server-wallets-only) allows automatic recovery only, not ${method}`,
    )
  if (config.user_owned_recovery_options.includes(method)) return
  const offered = app.settings.embedded_wallet_config?.user_owned_recovery_options ?? []
  if (method !== 'user-passcode' && offered.includes(method))
    throw new ApiError('CLOUD_RECOVERY_NOT_CONFIGURED', `This app has no ${method} recovery`)
  throw new ApiError('INVALID_PAYLOAD', `This app does not offer ${method} recovery`)
}
