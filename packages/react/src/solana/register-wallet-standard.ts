import { registerWallet } from '@wallet-standard/wallet'
import type { LatchkeyInstance } from '../store.ts'
import { LatchkeyStandardWallet } from './LatchkeyStandardWallet.ts'

// Loaded by LatchkeyProvider with `import()` (on unless the app sets
// `embeddedWallets.solana.walletStandard: false`), so the modal's first chunk
// does not carry the Wallet Standard code.

// The Wallet Standard has no unregistering: one wallet per page, which each
// mounted provider attaches to in turn.
let registered: LatchkeyStandardWallet | null = null

/**
 * Registers the "Latchkey" Wallet Standard wallet the first time it is
 * called on the page, and attaches `instance` to it. Returns the detach.
 *
 * @example
 * useEffect(() => attachWalletStandard(instance), [instance])
 */
export function attachWalletStandard(instance: LatchkeyInstance): () => void {
  if (!registered) {
    registered = new LatchkeyStandardWallet()
    registerWallet(registered)
  }
  return registered.attach(instance)
}
