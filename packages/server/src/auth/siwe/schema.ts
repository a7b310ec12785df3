/**
 * Wire schemas of Sign-In With Ethereum live in @latchkey/protocol
 * (schemas/external-wallet.ts); re-exported next to the routes, as every
 * login method does.
 */
export {
  siweAuthenticateRequestSchema,
  siweInitRequestSchema,
  siweInitResponseSchema,
  siweLinkRequestSchema,
  siweUnlinkRequestSchema,
} from '@latchkey/protocol'

/**
 * EVM chains a SIWE message may name when the app sets no `chains`
 * (docs/login-wallets.md): Ethereum, Optimism, BNB Chain, Polygon, Base,
 * Arbitrum One, Sepolia, Base Sepolia and a local Anvil / Hardhat node.
 */
export const DEFAULT_SIWE_CHAIN_IDS: readonly number[] = [
  1, 10, 56, 137, 8453, 42161, 11155111, 84532, 31337,
]
