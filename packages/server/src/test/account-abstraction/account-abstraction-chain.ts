// A local ERC-4337 world for smart-wallet tests: Anvil (Prague, so EIP-7702
// works), EntryPoint v0.7 and SimpleAccountFactory v0.7 at their canonical
// addresses, and Alto bundling against it. docs/smart-wallets.md.

import { type Address, type Chain, defineChain, type Hex } from 'viem'
import { entryPoint07Address } from 'viem/account-abstraction'
import { privateKeyToAccount } from 'viem/accounts'
import { startAnvil } from '../chains.ts'
import {
  type Deployer,
  deployEntryPoint07,
  deployEntryPoint08,
  deploySimple7702Account,
  deploySimpleAccountFactory07,
  ENTRY_POINT_08,
} from './account-abstraction-contracts.ts'
import { ensureBundlerTools, startAlto } from './erc4337-bundler.ts'
import { deploySafe141Contracts } from './safe-contracts.ts'

/** Anvil's dev accounts 0-2 (10 000 ETH each at genesis). */
export const ANVIL_KEYS = {
  /** Deploys contracts and funds whatever a test needs. */
  deployer: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
  /** Alto's executor: signs and pays for `handleOps`. */
  executor: '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d',
  /** Alto's utility wallet: deploys its simulation contracts. */
  utility: '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
} as const satisfies Record<string, Hex>

export interface AccountAbstractionChain {
  /** Anvil's JSON-RPC url. */
  rpcUrl: string
  /** Alto's JSON-RPC url (ERC-4337 `eth_*UserOperation*` methods). */
  bundlerUrl: string
  chain: Chain
  entryPoint: { address: Address; version: '0.7' }
  simpleAccountFactory: Address
  /** With `eip7702`: EntryPoint v0.8 and the Simple7702Account EOAs delegate to. */
  eip7702?: { entryPoint: { address: Address; version: '0.8' }; implementation: Address }
  /** Deploys and funds on this chain (Anvil's first dev account). */
  deployer: Deployer
  /** Milliseconds each step took, for the docs' timing notes. */
  timings: { anvil: number; contracts: number; alto: number }
  stop(): Promise<void>
}

/**
 * Starts Anvil, deploys the ERC-4337 v0.7 contracts and starts Alto; resolves
 * when Alto answers `eth_supportedEntryPoints`. Give `beforeAll` a generous
 * timeout: Alto takes several seconds to start on a loaded machine.
 *
 * @example
 * let aa: AccountAbstractionChain
 * beforeAll(async () => { aa = await startAccountAbstractionChain() }, 120_000)
 * afterAll(() => aa.stop())
 */
export async function startAccountAbstractionChain({
  chainId = 31337,
  eip7702 = false,
  safe = false,
}: {
  chainId?: number
  /** Also deploy EntryPoint v0.8 + Simple7702Account (needs `@account-abstraction/contracts-v08`). */
  eip7702?: boolean
  /** Also deploy Safe v1.4.1 + its 4337 module (needs `@safe-global/safe-contracts`, `@safe-global/safe-4337`). */
  safe?: boolean
} = {}): Promise<AccountAbstractionChain> {
  // The contract artifacts and Alto come from tools/erc4337-bundler.
  await ensureBundlerTools()
  let started = performance.now()
  const anvil = await startAnvil({ chainId, hardfork: 'prague' })
  const timings = { anvil: performance.now() - started, contracts: 0, alto: 0 }
  try {
    const chain = defineChain({
      id: chainId,
      name: 'Anvil',
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [anvil.rpcUrl] } },
    })
    const deployer: Deployer = {
      account: privateKeyToAccount(ANVIL_KEYS.deployer),
      chain,
      rpcUrl: anvil.rpcUrl,
    }
    started = performance.now()
    await deployEntryPoint07(deployer)
    const simpleAccountFactory = await deploySimpleAccountFactory07(deployer)
    const v08 = eip7702
      ? {
          entryPoint: { address: await deployEntryPoint08(deployer), version: '0.8' as const },
          implementation: await deploySimple7702Account(deployer),
        }
      : undefined
    if (safe) await deploySafe141Contracts(deployer)
    timings.contracts = performance.now() - started

    started = performance.now()
    const alto = await startAlto({
      rpcUrl: anvil.rpcUrl,
      entryPoints: v08 ? [entryPoint07Address, ENTRY_POINT_08] : [entryPoint07Address],
      executorPrivateKeys: [ANVIL_KEYS.executor],
      utilityPrivateKey: ANVIL_KEYS.utility,
    })
    timings.alto = performance.now() - started
    return {
      rpcUrl: anvil.rpcUrl,
      bundlerUrl: alto.bundlerUrl,
      chain,
      entryPoint: { address: entryPoint07Address, version: '0.7' },
      simpleAccountFactory,
      ...(v08 ? { eip7702: v08 } : {}),
      deployer,
      timings,
      // Both signals go out at once (each stop sends its kill synchronously):
      // a worker's exit hook can stop the chain too (sharedAccountAbstractionChain).
      stop: async () => {
        await Promise.all([alto.stop(), anvil.stop()])
      },
    }
  } catch (error) {
    await anvil.stop()
    throw error
  }
}

let shared: Promise<AccountAbstractionChain> | undefined

/**
 * One chain per test worker, with every contract (Safe, EIP-7702), for the
 * test files that need no chain of their own: starting Alto is most of such
 * a file's time. Files run one at a time in a worker and use fresh keys, so
 * they do not meet. Its `stop` does nothing; the chain stops when the worker
 * ends (vitest ends a worker with SIGTERM).
 *
 * @example
 * beforeAll(async () => { aa = await sharedAccountAbstractionChain() }, 120_000)
 */
export function sharedAccountAbstractionChain(): Promise<AccountAbstractionChain> {
  if (!shared) {
    const started = startAccountAbstractionChain({ eip7702: true, safe: true })
    shared = started.then(
      (aa) => {
        const stopNow = () => void aa.stop()
        process.once('exit', stopNow)
        process.once('SIGTERM', () => {
          stopNow()
          process.exit(143)
        })
        return { ...aa, stop: async () => {} }
      },
      (error: unknown) => {
        shared = undefined
        throw error
      },
    )
  }
  return shared
}
