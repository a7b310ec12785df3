// `npm start`'s smart wallets (docs/smart-wallets.md): on the Anvil node at
// argv[2], deploys the audited ERC-4337 contracts at their public addresses
// (EntryPoint v0.7, SimpleAccountFactory, Safe 1.4.1 with its 4337 module),
// a VerifyingPaymaster v0.7 that accepts the app's paymaster signer argv[3]
// with a 100 ETH deposit, and starts the Alto bundler on it. Prints one
// JSON line `{ bundlerUrl, paymaster }`, then serves until it is stopped.
//   node --conditions=latchkey-source --import tsx packages/server/src/test/local-smart-wallets.ts http://127.0.0.1:8545 0xSigner…
import { type Address, defineChain, parseEther } from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { ANVIL_KEYS } from './account-abstraction/account-abstraction-chain.ts'
import {
  type Deployer,
  deployEntryPoint07,
  deploySimpleAccountFactory07,
  deployVerifyingPaymaster07,
} from './account-abstraction/account-abstraction-contracts.ts'
import { ensureBundlerTools, startAlto } from './account-abstraction/erc4337-bundler.ts'
import { deploySafe141Contracts } from './account-abstraction/safe-contracts.ts'

const [anvilUrl = 'http://127.0.0.1:8545', signer] = process.argv.slice(2)
if (!signer?.startsWith('0x')) throw new Error('usage: local-smart-wallets.ts ANVIL_URL SIGNER')

// Anvil's dev account 3: local-chains.ts deploys the test tokens from account
// 0 at the same time, and Alto sends from accounts 1 and 2.
const DEPLOYER_KEY = '0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6'

await ensureBundlerTools()
const chain = defineChain({
  id: 31337,
  name: 'Anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [anvilUrl] } },
})
const deployer: Deployer = { account: privateKeyToAccount(DEPLOYER_KEY), chain, rpcUrl: anvilUrl }
await deployEntryPoint07(deployer)
await deploySimpleAccountFactory07(deployer)
await deploySafe141Contracts(deployer)
const { address: paymaster } = await deployVerifyingPaymaster07(deployer, {
  verifyingSigner: signer as Address,
  deposit: parseEther('100'),
})
const alto = await startAlto({
  rpcUrl: anvilUrl,
  entryPoints: [entryPoint07Address],
  executorPrivateKeys: [ANVIL_KEYS.executor],
  utilityPrivateKey: ANVIL_KEYS.utility,
})
console.log(JSON.stringify({ bundlerUrl: alto.bundlerUrl, paymaster }))
const stop = () => void alto.stop().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
