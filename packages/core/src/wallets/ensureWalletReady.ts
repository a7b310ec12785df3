import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { enclaveRequest } from './enclave.ts'

interface ConnectAnswer {
  entropy_id: string
  status: 'ready' | 'needs-recovery'
  recovery_method: 'latchkey' | 'user-passcode' | 'google-drive' | 'icloud'
}

/**
 * Makes sure the enclave holds this secret's device share. On a new device it
 * recovers: automatically for `latchkey` recovery, with `password` for a
 * password-protected wallet (without one, RECOVERY_REQUIRED asks the UI to
 * prompt "Enter your password").
 */
export async function ensureWalletReady(
  client: LatchkeyClient,
  entropyId: string,
  password?: string,
): Promise<void> {
  const connected = await enclaveRequest<ConnectAnswer>(client, 'latchkey:wallets:connect', {
    entropy_id: entropyId,
  })
  if (connected.status === 'ready') return
  if (connected.recovery_method === 'latchkey') {
    await enclaveRequest(client, 'latchkey:wallets:recover', { entropy_id: entropyId })
    return
  }
  if (connected.recovery_method === 'user-passcode' && password) {
    await enclaveRequest(client, 'latchkey:wallets:recover', { entropy_id: entropyId, password })
    return
  }
  throw new LatchkeyError('RECOVERY_REQUIRED', undefined, { details: connected })
}
