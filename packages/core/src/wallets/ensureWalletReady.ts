import type { CloudOAuthResult } from '@latchkey/protocol/schemas'
import { WalletAnalyticsEvent } from '../analytics.ts'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { connectEmbeddedWallet } from './connectEmbeddedWallet.ts'
import { enclaveRequest } from './enclave.ts'

/** What a user gives to recover a wallet on a new device. */
export interface RecoveryCredentials {
  /** A `user-passcode` wallet's password. */
  password?: string
  /** A cloud-drive wallet: the provider consent's result (`takeCloudConsentReturn`). */
  oauth?: CloudOAuthResult
}

/**
 * Makes sure the enclave holds this secret's device share. On a new device it
 * recovers: automatically for `latchkey` recovery, with the password for a
 * password-protected wallet, with the consent's result for a cloud-drive one.
 * Without what the method needs it throws RECOVERY_REQUIRED with
 * `details: { entropy_id, recovery_method }`, so the UI can ask for it; a
 * method this client does not know fails with UNABLE_TO_RECOVER_WALLET
 * (spec 03 §4: "otherwise it fails").
 *
 * @example
 * await ensureWalletReady(client, entropyId)                  // automatic, or already here
 * await ensureWalletReady(client, entropyId, 'correct horse') // password-protected
 */
export async function ensureWalletReady(
  client: LatchkeyClient,
  entropyId: string,
  credentials?: string | RecoveryCredentials,
): Promise<void> {
  const given: RecoveryCredentials =
    typeof credentials === 'string' ? { password: credentials } : (credentials ?? {})
  const connected = await connectEmbeddedWallet(client, entropyId)
  if (connected.status === 'ready') return
  const method = connected.recovery_method
  // Spec 03 §7: the recovery analytics events.
  const recovered = () =>
    client.trackEvent(WalletAnalyticsEvent.recoveryCompleted, { recoveryMethod: method })
  if (method === 'latchkey') {
    client.trackEvent(WalletAnalyticsEvent.pinlessRecoveryStarted, {})
    await enclaveRequest(client, 'latchkey:wallets:recover', { entropy_id: entropyId })
    return recovered()
  }
  if (method === 'user-passcode' && given.password) {
    await enclaveRequest(client, 'latchkey:wallets:recover', {
      entropy_id: entropyId,
      password: given.password,
    })
    return recovered()
  }
  if ((method === 'google-drive' || method === 'icloud') && given.oauth?.provider === method) {
    await enclaveRequest(client, 'latchkey:wallets:recover', {
      entropy_id: entropyId,
      oauth: given.oauth,
    })
    return recovered()
  }
  if (method === 'user-passcode' || method === 'google-drive' || method === 'icloud')
    throw new LatchkeyError('RECOVERY_REQUIRED', undefined, { details: connected })
  // A method of a newer server: nothing here can recover it.
  throw new LatchkeyError('UNABLE_TO_RECOVER_WALLET', `Unknown recovery method ${method}`, {
    details: connected,
  })
}
