import { LatchkeyError } from '@latchkey/core'
import type { ConnectedEthereumExternalWallet } from '@latchkey/core/external'
import { providerErrorCode } from '@latchkey/core/external'
import { chainClient } from '@latchkey/core/transactions'
import { formatUserMessage } from '@latchkey/protocol/errors'
import {
  type Chain,
  createWalletClient,
  custom,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  parseUnits,
} from 'viem'
import { waitForTransactionReceipt } from 'viem/actions'
import type { FundingToken } from './request.ts'

export interface TransferFromEthereumWalletParameters {
  chain: Chain
  /** The connected external wallet paying. */
  wallet: ConnectedEthereumExternalWallet
  /** The wallet being funded. */
  to: string
  /** Whole tokens ('0.05'). */
  amount: string
  token: FundingToken
  /** The paying wallet's balance of the asset. */
  readBalance(owner: string): Promise<bigint>
  /** The wallet sent the transaction: the screen shows it pending. */
  onSubmitted?: (hash: string) => void
}

/** EIP-1193 user rejection (4001), and Coinbase Wallet's (5000). */
const REJECTED = new Set([4001, 5000])

function isRejection(error: unknown): boolean {
  const code = providerErrorCode(error)
  return (
    (code !== undefined && REJECTED.has(code)) ||
    (error instanceof LatchkeyError && error.code === 'WALLET_USER_REJECTED')
  )
}

/**
 * Spec 03 "Transfer from wallet": moves `amount` from an external Ethereum
 * wallet to the funded one — the native currency with `eth_sendTransaction`,
 * an ERC-20 with its `transfer` — on the funding chain (the wallet is
 * switched to it first), then waits for the receipt. A wallet without the
 * amount is refused before it is asked ('Wallet {address} does not have
 * enough funds.'); the user's no is FUNDING_USER_REJECTED; a revert
 * FUNDING_FAILED.
 *
 * @example
 * const hash = await transferFromEthereumWallet({ chain: base, wallet, to, amount: '0.01',
 *   token: { symbol: 'ETH', decimals: 18 }, readBalance })
 */
export async function transferFromEthereumWallet({
  chain,
  wallet,
  to,
  amount,
  token,
  readBalance,
  onSubmitted,
}: TransferFromEthereumWalletParameters): Promise<string> {
  const value = parseUnits(amount, token.decimals)
  const from = getAddress(wallet.address)
  if ((await readBalance(from)) < value)
    throw new LatchkeyError(
      'FUNDING_WALLET_INSUFFICIENT_FUNDS',
      formatUserMessage('FUNDING_WALLET_INSUFFICIENT_FUNDS', { address: wallet.address }).title,
      { details: { address: wallet.address } },
    )
  const call = token.address
    ? {
        to: getAddress(token.address),
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [getAddress(to), value],
        }),
        value: 0n,
      }
    : { to: getAddress(to), value }
  return sendFromEthereumWallet({ chain, wallet, call, onSubmitted })
}

export interface SendFromEthereumWalletParameters {
  chain: Chain
  wallet: ConnectedEthereumExternalWallet
  call: { to: `0x${string}`; data?: `0x${string}`; value: bigint }
  onSubmitted?: (hash: string) => void
  /** What a reverted transaction is. Default FUNDING_FAILED. */
  revertedCode?: 'FUNDING_FAILED' | 'BRIDGE_TRANSACTION_FAILED'
}

/**
 * Switches the external wallet to `chain`, asks it to send `call`, and
 * waits for the receipt: the user's no is FUNDING_USER_REJECTED, a revert
 * `revertedCode`. Transfers and bridge deposits both go through here.
 */
export async function sendFromEthereumWallet({
  chain,
  wallet,
  call,
  onSubmitted,
  revertedCode = 'FUNDING_FAILED',
}: SendFromEthereumWalletParameters): Promise<`0x${string}`> {
  let hash: `0x${string}`
  try {
    await wallet.switchChain(chain.id)
  } catch (error) {
    // The user's no to the network switch: the request before the transaction.
    if (isRejection(error))
      throw new LatchkeyError('FUNDING_REQUEST_REJECTED', undefined, { cause: error })
    if (error instanceof LatchkeyError) throw error
    throw new LatchkeyError('FUNDING_FAILED', undefined, { cause: error })
  }
  try {
    const client = createWalletClient({
      account: getAddress(wallet.address),
      chain,
      transport: custom(wallet.getEthereumProvider()),
    })
    hash = await client.sendTransaction(call)
  } catch (error) {
    if (isRejection(error))
      throw new LatchkeyError('FUNDING_USER_REJECTED', undefined, { cause: error })
    if (error instanceof LatchkeyError) throw error
    throw new LatchkeyError('FUNDING_FAILED', undefined, { cause: error })
  }
  onSubmitted?.(hash)
  const receipt = await waitForTransactionReceipt(chainClient(chain), { hash })
  if (receipt.status !== 'success')
    throw new LatchkeyError(revertedCode, undefined, { details: { hash } })
  return hash
}
