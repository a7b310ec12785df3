/** Ethereum's explorer when the app names no chain (its default chain is mainnet). */
const ETHERSCAN = 'https://etherscan.io'

/**
 * The block-explorer page of an address (spec 02 "Account transfer": check
 * assets first): on Ethereum the explorer of the app's default chain
 * (Etherscan when the app names no chain; none for a chain without one, a
 * local node say); on Solana explorer.solana.com. No chain library here: the
 * modal's first chunk stays small.
 *
 * @example
 * explorerAddressUrl('0xabc…', 'ethereum', base) // 'https://basescan.org/address/0xabc…'
 */
export function explorerAddressUrl(
  address: string,
  chainType: 'ethereum' | 'solana',
  defaultChain?: { blockExplorers?: { default: { url: string } } },
): string | null {
  if (chainType === 'solana') return `https://explorer.solana.com/address/${address}`
  const base = defaultChain ? defaultChain.blockExplorers?.default.url : ETHERSCAN
  return base ? `${base.replace(/\/+$/, '')}/address/${address}` : null
}
