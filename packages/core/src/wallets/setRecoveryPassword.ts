import type { RecoveryChoice, UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { toUser, type User } from '../user.ts'
import { embeddedWallets } from './createWallet.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'

/** Spec 02 password rules: at least 6 characters; the password is used exactly as typed. */
export const RECOVERY_PASSWORD_MIN_LENGTH = 6

/**
 * Changes how the user's wallet is recovered on a new device: automatic
 * (`latchkey`), a password (argon2id in the enclave; the password never
 * leaves it), or a key in the user's Google Drive / iCloud (`oauth` from
 * `takeCloudConsentReturn`). The previous recovery share and any server-held
 * recovery key are replaced. `entropyId` defaults to the user's HD secret.
 *
 * @example
 * await setWalletRecovery(client, { recovery: { method: 'user-passcode', password } })
 */
export async function setWalletRecovery(
  client: LatchkeyClient,
  { recovery, entropyId }: { recovery: RecoveryChoice; entropyId?: string },
): Promise<User> {
  if (
    recovery.method === 'user-passcode' &&
    recovery.password.length < RECOVERY_PASSWORD_MIN_LENGTH
  )
    throw new LatchkeyError('PASSWORD_TOO_SHORT')
  const secret =
    entropyId ?? embeddedWallets(client.session.getState().user).find((w) => !w.imported)?.entropyId
  if (!secret) throw new LatchkeyError('WALLET_NOT_FOUND')
  await ensureWalletReady(client, secret)
  const { user } = await enclaveRequest<{ user: UserWire }>(
    client,
    'latchkey:wallets:set-recovery',
    { entropy_id: secret, recovery },
  )
  const updated = toUser(user)
  client.session.setUser(updated)
  return updated
}

/**
 * Protects the user's wallet with a recovery password: `setWalletRecovery`
 * with `user-passcode`.
 */
export function setRecoveryPassword(
  client: LatchkeyClient,
  { password, entropyId }: { password: string; entropyId?: string },
): Promise<User> {
  return setWalletRecovery(client, { recovery: { method: 'user-passcode', password }, entropyId })
}
