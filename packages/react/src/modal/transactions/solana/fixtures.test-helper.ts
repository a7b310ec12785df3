import type { PreparedSolanaTransaction, SolanaInstruction } from '@latchkey/core/solana'
import type { SolanaTransactionRequest } from '../../../transaction-requests.ts'

// The Solana confirm screen's tests build their requests here: a wallet, a
// recipient, and prepare / submit answers shaped as core gives them. No test
// runner import: the tests wrap what they watch in `vi.fn`.

export const WALLET = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'
export const RECIPIENT = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'
export const SIGNATURE =
  '5VERv8NMvzbJMEkV8xnrLkEaWRtSz9CosKDYjCJjBRnbJLgp8uirBgmQpjKhoR4tjF3ZpRzrFmBV6UjKdiSZkQUW'
export const SOL = 1_000_000_000n
export const DEVNET = { name: 'devnet', rpcUrl: 'https://api.devnet.solana.com' }

/** The app's wire transaction: the screen only passes it back to prepare / submit. */
export const WIRE = new Uint8Array([1, 2, 3])
/** The same after 'Retry transaction' put it on a new blockhash. */
export const REFRESHED = new Uint8Array([4, 5, 6])

/** 0.5 SOL from WALLET to RECIPIENT. */
export const solTransfer: SolanaInstruction = {
  type: 'sol-transfer',
  from: WALLET,
  to: RECIPIENT,
  lamports: SOL / 2n,
}

/** A Compute Budget instruction the decoder does not know. */
export const computeBudget: SolanaInstruction = {
  type: 'unknown',
  program: 'ComputeBudget111111111111111111111111111111',
  discriminator: '02',
}

/** What core's `prepare` answers: a 5000-lamport fee; 2 SOL in the wallet unless `balance` says otherwise. */
export function preparedOf(
  instructions: SolanaInstruction[] = [solTransfer],
  { balance = 2n * SOL }: { balance?: bigint } = {},
): PreparedSolanaTransaction {
  const fee = 5000n
  let sent = 0n
  for (const i of instructions)
    if ((i.type === 'sol-transfer' || i.type === 'create-account') && i.from === WALLET)
      sent += i.lamports
  return {
    fee,
    spender: WALLET,
    instructions,
    balance,
    hasFunds: balance >= fee + sent,
    version: 0,
  }
}

/** A request for the confirm screen; by default 0.5 SOL on devnet, and a send that succeeds. */
export function solanaRequest(
  overrides: Partial<SolanaTransactionRequest> = {},
): SolanaTransactionRequest {
  return {
    screen: 'solana-transaction',
    mode: 'send',
    address: WALLET,
    cluster: DEVNET,
    transaction: WIRE,
    uiOptions: {},
    prepare: async () => preparedOf(),
    refresh: async () => REFRESHED,
    submit: async () => ({ signedTransaction: WIRE, signature: SIGNATURE, fees: 5000n }),
    explorerUrl: (signature) => `https://explorer.solana.com/tx/${signature}?cluster=devnet`,
    entropyId: 'entropy-1',
    ...overrides,
  }
}
