import type { CloudOAuthResult, RecoveryMethod } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { enclaveRequest } from './enclave.ts'

interface ConnectAnswer {
  entropy_id: string
  status: 'ready' | 'needs-recovery'
  recovery_method: RecoveryMethod
}

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
 * `details: { entropy_id, recovery_method }`, so the UI can ask for it.
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
  const connected = await enclaveRequest<ConnectAnswer>(client, 'latchkey:wallets:connect', {
    entropy_id: entropyId,
  })
  if (connected.status === 'ready') return
  const method = connected.recovery_method
  if (method === 'latchkey') {
    await enclaveRequest(client, 'latchkey:wallets:recover', { entropy_id: entropyId })
    return
  }
  if (method === 'user-passcode' && given.password) {
    await enclaveRequest(client, 'latchkey:wallets:recover', {
      entropy_id: entropyId,
      password: given.password,
    })
    return
  }
  if ((method === 'google-drive' || method === 'icloud') && given.oauth?.provider === method) {
    await enclaveRequest(client, 'latchkey:wallets:recover', {
      entropy_id: entropyId,
      oauth: given.oauth,
    })
    return
  }
  throw new LatchkeyError('RECOVERY_REQUIRED', undefined, { details: connected })
}
