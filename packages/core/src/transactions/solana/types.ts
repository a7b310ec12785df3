/**
 * Spec 03 §3 "Solana instruction types". Amounts are in base units (lamports
 * for SOL, the mint's smallest unit for SPL tokens); addresses are base58.
 */
export type SolanaInstruction =
  | { type: 'sol-transfer'; from: string; to: string; lamports: bigint }
  | {
      type: 'spl-transfer'
      source: string
      destination: string
      owner: string
      amount: bigint
      /** Present for TransferChecked. */
      mint?: string
      decimals?: number
      /** Token or Token-2022 program. */
      program: string
    }
  | {
      type: 'ata-creation'
      payer: string
      ata: string
      owner: string
      mint: string
      program: string
    }
  | {
      type: 'create-account'
      from: string
      newAccount: string
      lamports: bigint
      space: bigint
      owner: string
    }
  | { type: 'spl-init-account'; account: string; mint: string; owner: string; program: string }
  | {
      type: 'spl-close-account'
      account: string
      destination: string
      owner: string
      program: string
    }
  | { type: 'spl-sync-native'; account: string; program: string }
  | {
      type: 'raydium-swap-base-input'
      amountIn: bigint
      minimumAmountOut: bigint
      program: string
    }
  | {
      type: 'raydium-swap-base-output'
      maxAmountIn: bigint
      amountOut: bigint
      program: string
    }
  | {
      type: 'jupiter-swap-shared-accounts-route'
      inAmount: bigint
      quotedOutAmount: bigint
      slippageBps: number
      sourceMint?: string
      destinationMint?: string
      program: string
    }
  | {
      type: 'jupiter-swap-exact-out-route'
      outAmount: bigint
      quotedInAmount: bigint
      slippageBps: number
      sourceMint?: string
      destinationMint?: string
      program: string
    }
  | {
      type: 'unknown'
      program: string /** First data bytes as hex (8 for Anchor programs, else 1). */
      discriminator: string
    }

/** Spec 03 §3 "Prepared Solana transaction". */
export interface PreparedSolanaTransaction {
  /** The fee in lamports (`getFeeForMessage`). */
  fee: bigint
  /** The fee payer (the wallet). */
  spender: string
  instructions: SolanaInstruction[]
  balance: bigint
  /** balance ≥ fee + lamports leaving the wallet. */
  hasFunds: boolean
  /** Legacy or v0. */
  version: 'legacy' | 0
}

/** Spec 03 §3 "Solana send result". */
export interface SolanaSendResult {
  /** base58. */
  signature: string
  /** The signed wire transaction. */
  transaction: Uint8Array
  fees: bigint
  /** The confirmed transaction's meta (err, logMessages, balances). */
  receipt: { slot: bigint; err: unknown; logMessages: string[] | null }
}
