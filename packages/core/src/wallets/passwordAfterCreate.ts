import type { RecoveryChoice, UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError, toLatchkeyError } from '../errors.ts'
import { isEmbeddedWallet, toUser, type User } from '../user.ts'
import { enclaveRequest } from './enclave.ts'

/**
 * The password step of a "create with a password" flow (spec 02 §8). A new
 * secret takes the password in the same step as its creation; wallets added
 * to an existing secret that is still on automatic recovery (`latchkey`) do
 * not, so the password is set on that secret right after. When that second
 * step fails, the wallets exist but the password does not protect them:
 * WALLET_PASSWORD_NOT_SET ('User created a wallet but failed to set a
 * password for it'), with the step's own error as `cause` and its code in
 * `details.code`. A secret that already has user-owned recovery (a password,
 * Google Drive, iCloud) keeps it: nothing is replaced silently. Resolves to
 * the user, updated when the password was set.
 */
export async function setPasswordAfterCreate(
  client: LatchkeyClient,
  user: User,
  entropyId: string,
  recovery: RecoveryChoice | undefined,
): Promise<User> {
  if (recovery?.method !== 'user-passcode') return user
  const secret = user.linkedAccounts
    .filter(isEmbeddedWallet)
    .find((wallet) => wallet.entropyId === entropyId)
  if (!secret || secret.recoveryMethod !== 'latchkey') return user
  let answer: { user: UserWire }
  try {
    answer = await enclaveRequest<{ user: UserWire }>(client, 'latchkey:wallets:set-recovery', {
      entropy_id: entropyId,
      recovery,
    })
  } catch (cause) {
    throw new LatchkeyError('WALLET_PASSWORD_NOT_SET', undefined, {
      cause,
      details: { code: toLatchkeyError(cause).code },
    })
  }
  const updated = toUser(answer.user)
  client.session.setUser(updated)
  return updated
}
