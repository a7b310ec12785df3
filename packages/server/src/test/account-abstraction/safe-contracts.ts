// Safe v1.4.1 + Safe4337Module v0.3.0 (EntryPoint v0.7) for tests, from the
// audited releases' npm artifacts (`@safe-global/safe-contracts@1.4.1`,
// `@safe-global/safe-4337@0.3.0`), at the addresses they have on public
// chains (permissionless's `toSafeSmartAccount` defaults).
import {
  type Address,
  concat,
  createTestClient,
  encodeAbiParameters,
  type Hex,
  http,
  publicActions,
} from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import {
  DETERMINISTIC_DEPLOYER,
  type Deployer,
  deployDeterministic,
  loadArtifact,
  ZERO_SALT,
} from './account-abstraction-contracts.ts'

/**
 * Safe's own CREATE2 proxy. On public chains it comes from a transaction
 * presigned per chain id; its code is the same as Arachnid's deployer, so on
 * Anvil we copy that code there (anvil_setCode).
 */
export const SAFE_SINGLETON_FACTORY: Address = '0x914d7Fec6aaC8cd542e72Bca78B30650d45643d7'

export const SAFE_141_CONTRACTS = {
  safeSingleton: '0x41675C099F32341bf84BFc5382aF534df5C7461a',
  safeProxyFactory: '0x4e1DCf7AD4e460CfD30791CCC4F9c8a4f820ec67',
  multiSend: '0x38869bf66a61cF6bDB996A6aE40D5853Fd43B526',
  multiSendCallOnly: '0x9641d764fc13c8B624c04430C7356C1C7C8102e2',
  safeModuleSetup: '0x2dd68b007B46fBe91B9A7c3EDa5A7a1063cB5b47',
  safe4337Module: '0x75cf11467937ce3F2f357CE24ffc3DBF8fD5c226',
} as const satisfies Record<string, Address>

function creationCode(pkg: string, path: string): Hex {
  return loadArtifact<{ bytecode: Hex }>(`${pkg}/build/artifacts/contracts/${path}.json`).bytecode
}

async function installSafeSingletonFactory({ chain, rpcUrl }: Deployer): Promise<void> {
  const client = createTestClient({ chain, mode: 'anvil', transport: http(rpcUrl) }).extend(
    publicActions,
  )
  const existing = await client.getCode({ address: SAFE_SINGLETON_FACTORY })
  if (existing && existing !== '0x') return
  const bytecode = await client.getCode({ address: DETERMINISTIC_DEPLOYER })
  if (!bytecode) throw new Error('the node has no deterministic deployer to copy')
  await client.setCode({ address: SAFE_SINGLETON_FACTORY, bytecode })
}

/**
 * Deploys what a Safe smart account needs on EntryPoint v0.7: the Safe
 * singleton, proxy factory and MultiSend libraries (through Safe's singleton
 * factory, salt 0) and the 4337 module + module setup (through the
 * deterministic deployer, salt 0). Each lands at its public-chain address or
 * the deploy throws: the artifacts are the audited bytecode.
 */
export async function deploySafe141Contracts(
  deployer: Deployer,
): Promise<typeof SAFE_141_CONTRACTS> {
  await installSafeSingletonFactory(deployer)
  const core = '@safe-global/safe-contracts'
  const viaSafeFactory = [
    [creationCode(core, 'Safe.sol/Safe'), SAFE_141_CONTRACTS.safeSingleton],
    [
      creationCode(core, 'proxies/SafeProxyFactory.sol/SafeProxyFactory'),
      SAFE_141_CONTRACTS.safeProxyFactory,
    ],
    [creationCode(core, 'libraries/MultiSend.sol/MultiSend'), SAFE_141_CONTRACTS.multiSend],
    [
      creationCode(core, 'libraries/MultiSendCallOnly.sol/MultiSendCallOnly'),
      SAFE_141_CONTRACTS.multiSendCallOnly,
    ],
  ] as const
  for (const [initCode, expected] of viaSafeFactory)
    await deployDeterministic(deployer, initCode, ZERO_SALT, expected, SAFE_SINGLETON_FACTORY)

  const module = '@safe-global/safe-4337'
  await deployDeterministic(
    deployer,
    creationCode(module, 'SafeModuleSetup.sol/SafeModuleSetup'),
    ZERO_SALT,
    SAFE_141_CONTRACTS.safeModuleSetup,
  )
  await deployDeterministic(
    deployer,
    concat([
      creationCode(module, 'Safe4337Module.sol/Safe4337Module'),
      encodeAbiParameters([{ type: 'address' }], [entryPoint07Address]),
    ]),
    ZERO_SALT,
    SAFE_141_CONTRACTS.safe4337Module,
  )
  return SAFE_141_CONTRACTS
}
