// ERC-4337 v0.7 contracts for tests, deployed from the artifacts of
// `@account-abstraction/contracts@0.7.0` (eth-infinitism's audited release)
// at the addresses they have on every public chain.
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import {
  type Abi,
  type Address,
  type Chain,
  concat,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  type Hex,
  http,
  type LocalAccount,
  parseEther,
} from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'

const require = createRequire(import.meta.url)

/**
 * Contract artifacts are test-only packages: the workspace's node_modules,
 * or tools/erc4337-bundler's, which is installed apart (as Alto is).
 */
const ARTIFACT_PATHS = [
  fileURLToPath(new URL('.', import.meta.url)),
  fileURLToPath(new URL('../../../../../tools/erc4337-bundler/', import.meta.url)),
]

/** The path of a file inside a test-only package, e.g. a Solidity source to compile. */
export function resolvePackageFile(specifier: string): string {
  return require.resolve(specifier, { paths: ARTIFACT_PATHS })
}

/** Loads a JSON artifact from a package, e.g. `@account-abstraction/contracts/artifacts/EntryPoint.json`. */
export function loadArtifact<T = { abi: Abi; bytecode: Hex }>(specifier: string): T {
  return require(require.resolve(specifier, { paths: ARTIFACT_PATHS })) as T
}

interface Artifact {
  abi: Abi
  bytecode: Hex
}

/**
 * v0.7 comes from `@account-abstraction/contracts` (0.7.0); v0.8 (EntryPoint
 * v0.8 and Simple7702Account, for EIP-7702) from the same package's 0.8.0,
 * installed under the alias `@account-abstraction/contracts-v08`.
 */
function artifact(name: string, release: '0.7' | '0.8' = '0.7'): Artifact {
  const pkg =
    release === '0.7' ? '@account-abstraction/contracts' : '@account-abstraction/contracts-v08'
  return loadArtifact<Artifact>(`${pkg}/artifacts/${name}.json`)
}

/**
 * Arachnid's deterministic deployment proxy: `to` it with `salt ++ initCode`
 * and it CREATE2s. Anvil has it at genesis; public chains have it too.
 */
export const DETERMINISTIC_DEPLOYER: Address = '0x4e59b44847b379578588920ca78fbf26c0b4956c'

/** The salt eth-infinitism used for EntryPoint v0.7 (its deploy script). */
const ENTRY_POINT_07_SALT: Hex =
  '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3'
export const ZERO_SALT: Hex = `0x${'00'.repeat(32)}`

/** SimpleAccountFactory v0.7 as deployed on public chains (permissionless's default). */
export const SIMPLE_ACCOUNT_FACTORY_07: Address = '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985'

export interface Deployer {
  account: LocalAccount
  chain: Chain
  rpcUrl: string
}

function clients({ account, chain, rpcUrl }: Deployer) {
  const transport = http(rpcUrl)
  return {
    publicClient: createPublicClient({ chain, transport, pollingInterval: 50 }),
    walletClient: createWalletClient({ account, chain, transport }),
  }
}

/**
 * CREATE2s `initCode` through the deterministic deployer unless code is
 * already there, and checks it landed where CREATE2 says it must.
 */
export async function deployDeterministic(
  deployer: Deployer,
  initCode: Hex,
  salt: Hex,
  expected?: Address,
  /** A CREATE2 proxy with the deterministic deployer's interface (e.g. Safe's singleton factory). */
  proxy: Address = DETERMINISTIC_DEPLOYER,
): Promise<Address> {
  const address = getContractAddress({
    opcode: 'CREATE2',
    from: proxy,
    salt,
    bytecode: initCode,
  })
  if (expected && address.toLowerCase() !== expected.toLowerCase())
    throw new Error(`artifact does not reproduce ${expected} (would deploy at ${address})`)
  const { publicClient, walletClient } = clients(deployer)
  const code = await publicClient.getCode({ address })
  if (code && code !== '0x') return address
  const hash = await walletClient.sendTransaction({
    to: proxy,
    data: concat([salt, initCode]),
    // A fixed ceiling saves an estimate round trip; the EntryPoint, the
    // largest of these, needs ~5.5 M.
    gas: 8_000_000n,
  })
  const receipt = await publicClient.waitForTransactionReceipt({ hash })
  const deployed = await publicClient.getCode({ address })
  if (receipt.status !== 'success' || !deployed || deployed === '0x')
    throw new Error(`deterministic deployment of ${address} failed`)
  return address
}

/**
 * EntryPoint v0.7 at its canonical 0x0000000071727De22E5E9d8BAf0edAc6f37da032:
 * the npm artifact's creation code under the canonical salt reproduces it.
 */
export function deployEntryPoint07(deployer: Deployer): Promise<Address> {
  return deployDeterministic(
    deployer,
    artifact('EntryPoint').bytecode,
    ENTRY_POINT_07_SALT,
    entryPoint07Address,
  )
}

/** SimpleAccountFactory v0.7 (constructor: the EntryPoint) at its canonical address, salt 0. */
export function deploySimpleAccountFactory07(deployer: Deployer): Promise<Address> {
  const initCode = concat([
    artifact('SimpleAccountFactory').bytecode,
    encodeAbiParameters([{ type: 'address' }], [entryPoint07Address]),
  ])
  return deployDeterministic(deployer, initCode, ZERO_SALT, SIMPLE_ACCOUNT_FACTORY_07)
}

/** EntryPoint v0.8 as deployed on public chains (permissionless's default for EIP-7702). */
export const ENTRY_POINT_08: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'
const ENTRY_POINT_08_SALT: Hex =
  '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9'
/** Simple7702Account (v0.8; its EntryPoint is a constant in the code), salt 0. */
export const SIMPLE_7702_ACCOUNT: Address = '0xe6Cae83BdE06E4c305530e199D7217f42808555B'

/** EntryPoint v0.8 at its canonical address (the 0.8.0 artifact under the canonical salt). */
export function deployEntryPoint08(deployer: Deployer): Promise<Address> {
  return deployDeterministic(
    deployer,
    artifact('EntryPoint', '0.8').bytecode,
    ENTRY_POINT_08_SALT,
    ENTRY_POINT_08,
  )
}

/** Simple7702Account at its canonical address: the code an EOA delegates to (EIP-7702). */
export function deploySimple7702Account(deployer: Deployer): Promise<Address> {
  return deployDeterministic(
    deployer,
    artifact('Simple7702Account', '0.8').bytecode,
    ZERO_SALT,
    SIMPLE_7702_ACCOUNT,
  )
}

export interface DeployVerifyingPaymasterParameters {
  /** Whose signature the paymaster accepts (the server's sponsorship key). */
  verifyingSigner: Address
  /** Put on the paymaster's EntryPoint deposit; gas for sponsored operations comes from it. */
  deposit?: bigint
}

/**
 * Deploys eth-infinitism's VerifyingPaymaster v0.7 (a plain CREATE from the
 * deployer, who becomes its owner) and funds its deposit at the EntryPoint.
 */
export async function deployVerifyingPaymaster07(
  deployer: Deployer,
  { verifyingSigner, deposit = parseEther('10') }: DeployVerifyingPaymasterParameters,
): Promise<{ address: Address; abi: Abi }> {
  const { abi, bytecode } = artifact('VerifyingPaymaster')
  const { publicClient, walletClient } = clients(deployer)
  const hash = await walletClient.deployContract({
    abi,
    bytecode,
    args: [entryPoint07Address, verifyingSigner],
  })
  const { contractAddress, status } = await publicClient.waitForTransactionReceipt({ hash })
  if (status !== 'success' || !contractAddress) throw new Error('VerifyingPaymaster deploy failed')
  const funded = await walletClient.writeContract({
    address: contractAddress,
    abi,
    functionName: 'deposit',
    value: deposit,
  })
  await publicClient.waitForTransactionReceipt({ hash: funded })
  return { address: getAddress(contractAddress), abi }
}

/** The v0.7 artifacts' ABIs, for tests that read the contracts. */
export const accountAbstractionAbis = {
  entryPoint: () => artifact('EntryPoint').abi,
  simpleAccountFactory: () => artifact('SimpleAccountFactory').abi,
  verifyingPaymaster: () => artifact('VerifyingPaymaster').abi,
}
