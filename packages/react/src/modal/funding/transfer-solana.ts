import { LatchkeyError } from '@latchkey/core'
import type { ConnectedSolanaExternalWallet } from '@latchkey/core/external'
import { formatUserMessage } from '@latchkey/protocol/errors'
import { parseUnits } from 'viem'
import type { FundingToken } from './request.ts'

// Loaded on demand: @solana/kit and the token programs come with
// `@latchkey/core/solana`, never with the funding chunk's first load.
type SolanaModule = typeof import('@latchkey/core/solana')
type SolanaClient = ReturnType<SolanaModule['createSolanaClient']>

export interface TransferFromSolanaWalletParameters {
  /** The funded wallet's cluster: the transaction is built and sent there. */
  rpcUrl: string
  /** The connected external Solana wallet paying. */
  wallet: ConnectedSolanaExternalWallet
  /** The wallet being funded. */
  to: string
  /** Whole tokens ('0.05'). */
  amount: string
  /** SOL, or the SPL token (USDC) with its mint as `address`. */
  token: FundingToken
  /** The wallet signed: the screen shows the transfer pending. */
  onSubmitted?: (signature: string) => void
}

/**
 * Spec 03 "Transfer from wallet" (confirmations for the Solana transfer):
 * moves `amount` from an external Solana wallet to the funded one — SOL with
 * a System transfer, USDC with TransferChecked after the recipient's token
 * account is created if missing — and waits for the confirmation. A wallet
 * without the amount (and the fee) is refused before it is asked ('Wallet
 * {address} does not have enough funds.'); the user's no is
 * FUNDING_USER_REJECTED; a failed transaction FUNDING_FAILED.
 *
 * @example
 * const signature = await transferFromSolanaWallet({ rpcUrl, wallet, to, amount: '0.5',
 *   token: { symbol: 'SOL', decimals: 9 } })
 */
export async function transferFromSolanaWallet({
  rpcUrl,
  wallet,
  to,
  amount,
  token,
  onSubmitted,
}: TransferFromSolanaWalletParameters): Promise<string> {
  const solana = await import('@latchkey/core/solana')
  const rpc = solana.createSolanaClient(rpcUrl)
  const { transaction } = await solana.buildSolanaFundingTransfer({
    rpc,
    from: wallet.address,
    to,
    amount: parseUnits(amount, token.decimals),
    ...(token.address ? { token: { mint: token.address, decimals: token.decimals } } : {}),
  })
  return sendFromSolanaWallet({ solana, rpc, wallet, transaction, onSubmitted })
}

export interface SendFromSolanaWalletParameters {
  solana: SolanaModule
  rpc: SolanaClient
  wallet: ConnectedSolanaExternalWallet
  /** Unsigned wire transaction, the wallet its fee payer. */
  transaction: Uint8Array
  onSubmitted?: (signature: string) => void
  /** What a transaction failing on chain is. Default FUNDING_FAILED. */
  failedCode?: 'FUNDING_FAILED' | 'BRIDGE_TRANSACTION_FAILED'
}

/**
 * Asks the external wallet to sign (`solana:signTransaction`), sends the
 * signed transaction through the funded wallet's cluster RPC — so it lands
 * on that cluster whatever network the wallet is set to — and waits for the
 * confirmation. Transfers and bridge deposits both go through here.
 */
export async function sendFromSolanaWallet({
  solana,
  rpc,
  wallet,
  transaction,
  onSubmitted,
  failedCode = 'FUNDING_FAILED',
}: SendFromSolanaWalletParameters): Promise<string> {
  const sign = wallet.signTransaction
  if (!sign)
    throw new LatchkeyError(
      'UNSUPPORTED_METHOD',
      `${wallet.meta.name} cannot sign Solana transactions`,
    )
  try {
    const { signature } = await solana.sendSolanaTransaction({
      rpc,
      transaction,
      sign: async (wire) => {
        const signed = await sign(wire)
        onSubmitted?.(solana.solanaSignatureOf(signed))
        return signed
      },
    })
    return signature
  } catch (error) {
    if (!(error instanceof LatchkeyError))
      throw new LatchkeyError(failedCode, undefined, { cause: error })
    if (error.code === 'WALLET_USER_REJECTED')
      throw new LatchkeyError('FUNDING_USER_REJECTED', undefined, { cause: error })
    // The balance changed between the check and the send: the node refused the fee.
    if (error.code === 'INSUFFICIENT_BALANCE')
      throw new LatchkeyError(
        'FUNDING_WALLET_INSUFFICIENT_FUNDS',
        formatUserMessage('FUNDING_WALLET_INSUFFICIENT_FUNDS', { address: wallet.address }).title,
        { details: { address: wallet.address }, cause: error },
      )
    if (error.code === 'TRANSACTION_FAILURE' || error.code === 'TRANSACTION_SIGN_FAILED')
      throw new LatchkeyError(failedCode, undefined, { details: error.details, cause: error })
    throw error
  }
}
