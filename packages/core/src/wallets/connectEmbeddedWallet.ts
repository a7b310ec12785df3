import type { RecoveryMethod } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { enclaveRequest } from './enclave.ts'

/** The enclave's answer to `latchkey:wallets:connect`. */
export interface ConnectEmbeddedWalletReturnType {
  entropy_id: string
  /** `ready`: this device holds the wallet's share; `needs-recovery`: it must be recovered first. */
  status: 'ready' | 'needs-recovery'
  /** How the wallet is recovered on a new device. */
  recovery_method: RecoveryMethod
}

/**
 * Connects an embedded wallet through the wallet proxy (spec 03 §4 "Connect
 * wallet"): asks the enclave whether this device holds the wallet's share,
 * and if not, how the wallet is recovered. Moves no key material and asks the
 * user nothing; `ensureWalletReady` goes on to recover.
 *
 * @example
 * const { status } = await connectEmbeddedWallet(client, wallet.entropyId)
 * if (status === 'needs-recovery') showConnectScreen()
 */
export function connectEmbeddedWallet(
  client: LatchkeyClient,
  entropyId: string,
): Promise<ConnectEmbeddedWalletReturnType> {
  return enclaveRequest<ConnectEmbeddedWalletReturnType>(client, 'latchkey:wallets:connect', {
    entropy_id: entropyId,
  })
}
