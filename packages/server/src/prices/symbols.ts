/**
 * Every token the server prices: symbol → CoinGecko coin id (the "API ID" on
 * a coin's CoinGecko page; `GET /coins/list`). This table is the whole list:
 * a symbol outside it is UNKNOWN_TOKEN. A symbol names the same asset on
 * every chain (ETH on Base is priced as ETH), so the chain id of a request
 * does not change the answer. Symbols match without regard to case.
 *
 * Token symbols are chosen by whoever deploys a contract, so the confirm
 * screens price only native currencies (chain-given symbols), never a
 * contract's self-declared 'USDC' (docs/transactions.md "Prices").
 */
const COINGECKO_IDS: ReadonlyMap<string, string> = new Map([
  ['ETH', 'ethereum'],
  ['SOL', 'solana'],
  ['POL', 'polygon-ecosystem-token'],
  // Polygon's native currency before its 2024 rename to POL, as older chain definitions spell it.
  ['MATIC', 'polygon-ecosystem-token'],
  ['BNB', 'binancecoin'],
  ['AVAX', 'avalanche-2'],
  ['USDC', 'usd-coin'],
  ['USDT', 'tether'],
  ['DAI', 'dai'],
  ['WETH', 'weth'],
  ['WBTC', 'wrapped-bitcoin'],
])

/** Every id of the table, each once: one upstream call prices them all. */
export const PRICED_COINGECKO_IDS: readonly string[] = [...new Set(COINGECKO_IDS.values())]

/**
 * The CoinGecko id of a token symbol, or undefined when the table does not
 * list it.
 *
 * @example
 * coinGeckoIdOf('eth') // 'ethereum'
 * coinGeckoIdOf('PEPE') // undefined
 */
export const coinGeckoIdOf = (symbol: string): string | undefined =>
  COINGECKO_IDS.get(symbol.toUpperCase())
