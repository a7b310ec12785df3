// Chain test helpers for other packages' tests ('@latchkey/server/test/chains'):
// a local Anvil node, solc-js, and the test token contracts.
export { type AnvilNode, startAnvil } from './anvil.ts'
export { freePort } from './free-port.ts'
export { type CompiledContract, compileSolidity } from './solidity.ts'
export {
  ANVIL_DEV_KEY,
  type DeployedContract,
  type DeployTestTokensParameters,
  deployTestTokens,
  TEST_TOKENS_SOURCE,
  type TestTokens,
} from './tokens.ts'
