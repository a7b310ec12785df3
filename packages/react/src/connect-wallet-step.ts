import type { CloudRecoveryProvider } from '@latchkey/protocol/schemas'

/**
 * Spec 03 "Connect wallet": what the connect-wallet screen runs. It connects
 * through the wallet proxy, recovering automatically where the wallet's
 * method allows; a password or a cloud backup is asked for on the screen.
 */
export interface ConnectWalletStep {
  /** Core `ensureWalletReady(client, entropyId)`: RECOVERY_REQUIRED when the user must act. */
  connect(): Promise<void>
  /** A password-protected wallet on a new device: core `ensureWalletReady` with the password. */
  recover(password: string): Promise<void>
  /** A cloud-backed wallet on a new device: leaves for the provider's consent. */
  startCloudRecovery(provider: CloudRecoveryProvider): Promise<void>
  /** Keep the loader up at least this long (spec 03 §4: 1 s when export opened it). */
  minimumDisplayMs?: number
}
