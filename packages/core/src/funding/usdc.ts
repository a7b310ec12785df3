/** USDC has 6 decimals on every chain Circle issues it on (spec 03 §9 "Decimals"). */
export const USDC_DECIMALS = 6

/** Which asset a funding request asks for: the chain's native currency or USDC. */
export type FundingAsset = 'native-currency' | 'USDC'

/** The Solana clusters the modal knows (spec 03 §9 "Solana clusters"). */
export type SolanaCluster = 'mainnet-beta' | 'devnet' | 'testnet'

/**
 * Native USDC issued by Circle, by EIP-155 chain id (Circle's published
 * "USDC contract addresses"). Bridged variants (USDC.e, Binance-Peg USDC)
 * are left out on purpose: a user sending "USDC" must get Circle's token.
 */
const USDC_BY_CHAIN: Readonly<Record<number, `0x${string}`>> = {
  // Mainnets
  1: '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48', // Ethereum
  10: '0x0b2C639c533813f4Aa9D7837CAf62653d097Ff85', // OP Mainnet
  137: '0x3c499c542cEF5E3811e1192ce70d8cC03d5c3359', // Polygon PoS
  324: '0x1d17CBcF0D6D143135aE902365D2E5e2A16538D4', // ZKsync Era
  8453: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', // Base
  42161: '0xaf88d065e77c8cC2239327C5EDb3A432268e5831', // Arbitrum One
  42220: '0xcebA9300f2b948710d2653dD7B07f33A8B32118C', // Celo
  43114: '0xB97EF9Ef8734C71904D8002F8b6Bc66Dd9c48a6E', // Avalanche C-Chain
  59144: '0x176211869cA2b568f2A7D4EE941E073a821EE1ff', // Linea
  130: '0x078D782b760474a361dDA0AF3839290b0EF57AD6', // Unichain
  480: '0x79A02482A880bCE3F13e09Da970dC34db4CD24d1', // World Chain
  // Testnets
  11155111: '0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238', // Sepolia
  84532: '0x036CbD53842c5426634e7929541eC2318f3dCF7e', // Base Sepolia
  11155420: '0x5fd84259d66Cd46123540766Be93DFE6D43130D7', // OP Sepolia
  421614: '0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d', // Arbitrum Sepolia
  80002: '0x41E94Eb019C0762f9Bfcf9Fb1E58725BfB0e7582', // Polygon Amoy
  43113: '0x5425890298aed601595a70AB815c96711a31Bc65', // Avalanche Fuji
}

/**
 * The USDC token contract on an Ethereum-style chain, or undefined when
 * Latchkey does not know one (spec 03 §9: "known for about 12 Ethereum-style
 * chains"; §8: wallet-transfer funding of USDC is then not offered).
 *
 * @example
 * usdcAddress(8453) // '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913'
 * usdcAddress(56)   // undefined: only Binance-Peg USDC exists there
 */
export function usdcAddress(chainId: number): `0x${string}` | undefined {
  return USDC_BY_CHAIN[chainId]
}

/** Circle's USDC mint on Solana (none on testnet: spec 03 §5). */
export const USDC_SOLANA_MINT: Readonly<Record<'mainnet-beta' | 'devnet', string>> = {
  'mainnet-beta': 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
  devnet: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU',
}
