// eth-infinitism's VerifyingPaymaster for EntryPoint v0.8. The 0.8.0 npm
// release ships no samples, so this compiles the audited 0.7.0 sample
// (`@account-abstraction/contracts/samples/VerifyingPaymaster.sol`) against
// the 0.8.0 core (`@account-abstraction/contracts-v08/core/*`) with solc-js,
// changing only what the v0.8 sources require (ADAPTATIONS below).
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import {
  type Abi,
  type Address,
  createPublicClient,
  createWalletClient,
  getAddress,
  type Hex,
  http,
  parseEther,
} from 'viem'
import {
  type Deployer,
  type DeployVerifyingPaymasterParameters,
  ENTRY_POINT_08,
  resolvePackageFile,
} from './account-abstraction-contracts.ts'

const require = createRequire(import.meta.url)

const SAMPLE = '@account-abstraction/contracts/samples/VerifyingPaymaster.sol'
/**
 * Where the sample is compiled from: beside the v0.8 core, so its relative
 * imports (`../core/BasePaymaster.sol`, `../core/UserOperationLib.sol`,
 * `../core/Helpers.sol`) resolve to the 0.8.0 sources unchanged.
 */
const SOURCE_NAME = '@account-abstraction/contracts-v08/samples/VerifyingPaymaster.sol'

/**
 * Every edit made to the 0.7.0 sample, each required by a v0.8 source. The
 * compile fails if one no longer matches exactly once (a different sample).
 */
const ADAPTATIONS: Array<{ from: string; to: string; why: string }> = [
  {
    // v0.8's UserOperationLib dropped `getSender()` (an assembly read of
    // `userOp.sender`); the field itself is the same value.
    from: 'address sender = userOp.getSender();',
    to: 'address sender = userOp.sender;',
    why: 'UserOperationLib v0.8 has no getSender()',
  },
]
// Left as released: pragma ^0.8.23 (the v0.8 core's ^0.8.28 narrows it; solc
// 0.8.37 satisfies both); BasePaymaster v0.8 is Ownable2Step instead of
// Ownable (the sample only inherits it); the `getHash` fields and the
// `paymasterAndData` layout (v0.8 keeps PAYMASTER_DATA_OFFSET = 52 and has no
// paymaster-signature suffix, which arrives in v0.9).

/** The sample's source with the ADAPTATIONS applied. */
export function verifyingPaymaster08Source(): string {
  let source = readFileSync(resolvePackageFile(SAMPLE), 'utf8')
  for (const { from, to, why } of ADAPTATIONS) {
    if (source.split(from).length !== 2)
      throw new Error(`VerifyingPaymaster 0.7.0 sample changed: cannot adapt (${why})`)
    source = source.replace(from, `${to} // v0.8 adaptation: ${why}`)
  }
  return source
}

interface SolcOutput {
  errors?: Array<{ severity: string; formattedMessage: string }>
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>
}

let compiled: { abi: Abi; bytecode: Hex } | undefined

/**
 * Compiles the adapted sample with solc-js (no network): imports come from
 * the installed `@account-abstraction/contracts-v08` and `@openzeppelin/contracts`
 * (the version the v0.8 package resolves to). Settings follow the v0.8
 * release's hardhat config for non-EntryPoint contracts: optimizer 1 000 000
 * runs, EVM `cancun`, no via-IR.
 */
export function compileVerifyingPaymaster08(): { abi: Abi; bytecode: Hex } {
  if (compiled) return compiled
  const solc = require('solc') as {
    compile(
      input: string,
      callbacks: { import(path: string): { contents: string } | { error: string } },
    ): string
  }
  const input = {
    language: 'Solidity',
    sources: { [SOURCE_NAME]: { content: verifyingPaymaster08Source() } },
    settings: {
      evmVersion: 'cancun',
      optimizer: { enabled: true, runs: 1_000_000 },
      outputSelection: { [SOURCE_NAME]: { VerifyingPaymaster: ['abi', 'evm.bytecode.object'] } },
    },
  }
  const findImport = (path: string) => {
    try {
      return { contents: readFileSync(resolvePackageFile(path), 'utf8') }
    } catch (error) {
      return { error: `${path}: ${(error as Error).message}` }
    }
  }
  const output = JSON.parse(
    solc.compile(JSON.stringify(input), { import: findImport }),
  ) as SolcOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const contract = output.contracts[SOURCE_NAME]?.VerifyingPaymaster
  if (!contract) throw new Error('solc produced no VerifyingPaymaster')
  compiled = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` }
  return compiled
}

/**
 * Deploys the v0.8 VerifyingPaymaster for EntryPoint v0.8 (a plain CREATE
 * from the deployer, who becomes its owner) and funds its deposit there.
 * Its constructor checks the EntryPoint's ERC-165 interface id, which is why
 * the v0.7 artifact cannot serve v0.8.
 *
 * @example
 * const paymaster = await deployVerifyingPaymaster08(aa.deployer, { verifyingSigner: sponsor.address })
 */
export async function deployVerifyingPaymaster08(
  deployer: Deployer,
  {
    verifyingSigner,
    deposit = parseEther('10'),
    entryPoint = ENTRY_POINT_08,
  }: DeployVerifyingPaymasterParameters & { entryPoint?: Address },
): Promise<{ address: Address; abi: Abi }> {
  const { abi, bytecode } = compileVerifyingPaymaster08()
  const transport = http(deployer.rpcUrl)
  const publicClient = createPublicClient({ chain: deployer.chain, transport, pollingInterval: 50 })
  const walletClient = createWalletClient({
    account: deployer.account,
    chain: deployer.chain,
    transport,
  })
  const hash = await walletClient.deployContract({
    abi,
    bytecode,
    args: [entryPoint, verifyingSigner],
  })
  const { contractAddress, status } = await publicClient.waitForTransactionReceipt({ hash })
  if (status !== 'success' || !contractAddress)
    throw new Error('VerifyingPaymaster v0.8 deploy failed')
  const funded = await walletClient.writeContract({
    address: contractAddress,
    abi,
    functionName: 'deposit',
    value: deposit,
  })
  await publicClient.waitForTransactionReceipt({ hash: funded })
  return { address: getAddress(contractAddress), abi }
}
