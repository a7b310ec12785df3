import type { ErrorCode } from './error-codes.ts'
import type { UserMessage } from './user-message.ts'

/*
 * Wallet rules and wallet-proxy failures in the spec's own words (spec 02 §8
 * "Recovery and creation", spec 03 §8). 'Privy' in the spec is this
 * project's name.
 */
export const walletRulesErrorMessages = {
  // Spec 03 §8 / §2: an embedded Solana wallet signs in nowhere and is never unlinked.
  EMBEDDED_SOLANA_WALLET_LOGIN: { title: 'Cannot login or link with an embedded Solana wallet' },
  EMBEDDED_SOLANA_WALLET_UNLINK: { title: 'Cannot unlink an embedded Solana wallet' },
  // Spec 03 §8: the enclave frame failed to load, so no wallet call can run.
  WALLET_PROXY_INIT_FAILED: { title: 'Failed to initialize embedded wallet proxy.' },
  // Spec 02 §8: the wallets were made, but the password asked for does not protect them yet.
  WALLET_PASSWORD_NOT_SET: { title: 'User created a wallet but failed to set a password for it' },
} satisfies Partial<Record<ErrorCode, UserMessage>>
