// The smart-wallet tests' real peers (issue 24): Anvil on Prague with the
// audited ERC-4337 contracts at their public addresses, and Pimlico's Alto
// bundler. Server tests (the paymaster, the smart_wallet link) and core tests
// (the smart accounts) share it as `@latchkey/server/test/account-abstraction`.
export {
  type AccountAbstractionChain,
  ANVIL_KEYS,
  sharedAccountAbstractionChain,
  startAccountAbstractionChain,
} from './account-abstraction-chain.ts'
export * from './account-abstraction-contracts.ts'
export { SAFE_141_CONTRACTS, SAFE_SINGLETON_FACTORY } from './safe-contracts.ts'
export * from './verifying-paymaster-08.ts'
