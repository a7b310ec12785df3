import type { FarcasterSigner } from '@latchkey/core'

/**
 * The 'Add a signer to Farcaster' screen (spec 03 §2 "Farcaster signer"):
 * `init` is core `initFarcasterSigner` (the enclave makes the key, the
 * server starts the signed key request), `wait` core `waitForFarcasterSigner`
 * (polls every 2 s, 5 min timeout). Resolves with the approved signer;
 * closing the screen first rejects with 4001.
 */
export interface FarcasterSignerRequest {
  screen: 'farcaster-signer'
  init(): Promise<FarcasterSigner>
  wait(publicKey: string, signal: AbortSignal): Promise<FarcasterSigner>
}
