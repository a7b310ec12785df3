import type { UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { toUser, type User } from '../user.ts'
import { embeddedWallets } from './createWallet.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'

/** Spec 02 password rules: at least 6 characters; the password is used exactly as typed. */
export const RECOVERY_PASSWORD_MIN_LENGTH = 6

/**
 * Protects the user's wallet with a recovery password (argon2id in the
 * enclave; the password never leaves it). Replaces automatic recovery: the
 * server-held recovery key is deleted. `entropyId` defaults to the user's HD
 * secret.
 */
export async function setRecoveryPassword(
  client: LatchkeyClient,
  { password, entropyId }: { password: string; entropyId?: string },
): Promise<User> {
  if (password.length < RECOVERY_PASSWORD_MIN_LENGTH) throw new LatchkeyError('PASSWORD_TOO_SHORT')
  const secret =
    entropyId ?? embeddedWallets(client.session.getState().user).find((w) => !w.imported)?.entropyId
  if (!secret) throw new LatchkeyError('WALLET_NOT_FOUND')
  await ensureWalletReady(client, secret)
  const { user } = await enclaveRequest<{ user: UserWire }>(
    client,
    'latchkey:wallets:set-recovery',
    {
      entropy_id: secret,
      recovery: { method: 'user-passcode', password },
    },
  )
  const updated = toUser(user)
  client.session.setUser(updated)
  return updated
}
