import { createRequire } from 'node:module'
import type { Abi, Hex } from 'viem'

const require = createRequire(import.meta.url)

export interface CompiledContract {
  abi: Abi
  /** Creation bytecode, 0x-prefixed. */
  bytecode: Hex
  /** Runtime bytecode (what `anvil_setCode` installs at an address). */
  deployedBytecode: Hex
}

interface SolcOutput {
  errors?: Array<{ severity: string; formattedMessage: string }>
  contracts: Record<
    string,
    Record<
      string,
      { abi: Abi; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >
}

const cache = new Map<string, Record<string, CompiledContract>>()

/**
 * Compiles Solidity source with solc-js (the compiler as WebAssembly, no
 * network) and returns every contract in it by name. Tests deploy the
 * result to Anvil.
 */
export function compileSolidity(source: string): Record<string, CompiledContract> {
  const cached = cache.get(source)
  if (cached) return cached
  const solc = require('solc') as { compile(input: string): string }
  const input = {
    language: 'Solidity',
    sources: { 'Test.sol': { content: source } },
    settings: {
      optimizer: { enabled: true, runs: 200 },
      outputSelection: {
        '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
      },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error')
  if (errors.length > 0) throw new Error(errors.map((e) => e.formattedMessage).join('\n'))
  const contracts: Record<string, CompiledContract> = {}
  for (const [name, c] of Object.entries(output.contracts['Test.sol'] ?? {}))
    contracts[name] = {
      abi: c.abi,
      bytecode: `0x${c.evm.bytecode.object}`,
      deployedBytecode: `0x${c.evm.deployedBytecode.object}`,
    }
  cache.set(source, contracts)
  return contracts
}
