import { parseUnits } from 'viem'

export type PaymentUriInput =
  | {
      chainType: 'ethereum'
      /** The wallet receiving the funds. */
      address: string
      chainId: number
      /** A decimal amount in whole tokens ('0.05'); omitted: the payer chooses. */
      amount?: string
      /** An ERC-20 (USDC: `usdcAddress(chainId)`, 6 decimals); omitted: the native currency. */
      token?: { address: string; decimals: number }
    }
  | {
      chainType: 'solana'
      address: string
      amount?: string
      /** The SPL mint (USDC: `USDC_SOLANA_MINT[cluster]`); omitted: SOL. */
      splToken?: string
    }

/**
 * The QR code's payload for Receive funds (spec 03 §2 "Receive funds"):
 * an EIP-681 payment request on Ethereum-style chains, a Solana Pay transfer
 * request on Solana (USDC adds the `spl-token` parameter).
 *
 * @example
 * paymentUri({ chainType: 'ethereum', address, chainId: 8453, amount: '0.01' })
 * // 'ethereum:0xAbc…@8453?value=10000000000000000'
 * paymentUri({ chainType: 'ethereum', address, chainId: 1, amount: '5',
 *   token: { address: usdcAddress(1)!, decimals: 6 } })
 * // 'ethereum:0xA0b8…eB48@1/transfer?address=0xAbc…&uint256=5000000'
 * paymentUri({ chainType: 'solana', address, amount: '1.5', splToken: USDC_SOLANA_MINT['mainnet-beta'] })
 * // 'solana:9xQe…?amount=1.5&spl-token=EPjF…Dt1v'
 */
export function paymentUri(input: PaymentUriInput): string {
  const amount = input.amount === undefined || input.amount === '' ? undefined : input.amount
  if (amount !== undefined && !/^(\d+\.?\d*|\.\d+)$/.test(amount))
    throw new TypeError(`paymentUri: "${amount}" is not a decimal amount`)

  if (input.chainType === 'solana') {
    const query = new URLSearchParams()
    // Solana Pay: `amount` is in whole tokens, never in scientific notation.
    if (amount !== undefined) query.set('amount', trimDecimal(amount))
    if (input.splToken) query.set('spl-token', input.splToken)
    const search = query.toString()
    return `solana:${input.address}${search ? `?${search}` : ''}`
  }

  const { address, chainId, token } = input
  if (token) {
    // EIP-681: call `transfer(address,uint256)` on the token contract.
    const query = new URLSearchParams({ address })
    if (amount !== undefined) query.set('uint256', parseUnits(amount, token.decimals).toString())
    return `ethereum:${token.address}@${chainId}/transfer?${query}`
  }
  // EIP-681: `value` is in wei, for the native currency.
  const value = amount === undefined ? '' : `?value=${parseUnits(amount, 18).toString()}`
  return `ethereum:${address}@${chainId}${value}`
}

/** '1.50' → '1.5', '.5' → '0.5', '2.' → '2'. */
function trimDecimal(amount: string): string {
  const [whole = '', fraction = ''] = amount.split('.')
  const trimmed = fraction.replace(/0+$/, '')
  return `${whole.replace(/^0+(?=\d)/, '') || '0'}${trimmed ? `.${trimmed}` : ''}`
}
