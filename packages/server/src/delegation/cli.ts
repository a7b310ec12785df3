import { walletRpcMethods } from '@latchkey/protocol'
import { base58 } from '@scure/base'
import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import {
  canonicalContract,
  clearDelegationPolicy,
  type DelegationPolicy,
  getDelegationPolicy,
  setDelegationPolicy,
} from './policy.ts'

// `latchkey apps delegation-policy set|show|clear` (docs/delegated-actions.md
// "Policies"). The specs are spread into cli/commands.ts COMMANDS (structurally
// its CommandSpec: no import back, so no cycle); runCli hands the commands to
// delegationPolicyCommand.

const json = { type: 'boolean', help: 'print JSON on stdout' } as const
const NO_POLICY_NOTE =
  'Without a policy the server refuses every delegated request of the app: set one ' +
  '(even with no flags, which allows everything) to let your backend sign with wallets ' +
  'users delegated.'

export const DELEGATION_POLICY_COMMANDS = [
  {
    path: ['apps', 'delegation-policy', 'set'],
    args: ['ID'],
    synopsis:
      'ID [--chains C,…] [--contracts A,…] [--methods M,…] [--max-value-per-tx WEI] [--max-value-per-day WEI]',
    summary: "set (replace) the app's delegation policy; a flag left out does not limit",
    flags: {
      chains: {
        type: 'string',
        value: 'C,…',
        help: 'CAIP-2 chains transactions may use, comma-separated (eip155:8453,eip155:1)',
      },
      contracts: {
        type: 'string',
        value: 'A,…',
        help: 'addresses Ethereum transactions may go to (0x…) and programs Solana transactions may invoke (base58), comma-separated',
      },
      methods: {
        type: 'string',
        value: 'M,…',
        help: `RPC methods allowed, comma-separated: ${walletRpcMethods.join(', ')}`,
      },
      'max-value-per-tx': { type: 'string', value: 'WEI', help: 'most wei one transaction moves' },
      'max-value-per-day': {
        type: 'string',
        value: 'WEI',
        help: "most wei one wallet's signed transactions move in 24 hours",
      },
      json,
    },
    notes: [NO_POLICY_NOTE],
  },
  {
    path: ['apps', 'delegation-policy', 'show'],
    args: ['ID'],
    synopsis: 'ID [--json]',
    summary: "print the app's delegation policy",
    flags: { json },
    notes: [NO_POLICY_NOTE],
  },
  {
    path: ['apps', 'delegation-policy', 'clear'],
    args: ['ID'],
    synopsis: 'ID',
    summary: "remove the app's delegation policy: every delegated request is refused again",
    flags: {},
  },
] as const

export interface DelegationPolicyCommandInput {
  db: Kysely<Database>
  /** `apps delegation-policy set|show|clear`. */
  key: string
  positionals: string[]
  values: Record<string, unknown>
  now?: number
  out: (line: string) => void
  err: (line: string) => void
}

const splitList = (value: unknown) =>
  typeof value === 'string'
    ? value
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean)
    : null

/** A base58 string of 32 bytes (a Solana public key). */
function isSolanaProgramId(text: string): boolean {
  try {
    return base58.decode(text).length === 32
  } catch {
    return false
  }
}

/** The policy the flags describe; throws with a message for a malformed one. */
export function policyFromFlags(values: Record<string, unknown>): DelegationPolicy {
  const chains = splitList(values.chains)
  for (const chain of chains ?? [])
    if (!/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/.test(chain))
      throw new Error(`--chains: ${chain} is not a CAIP-2 chain id (eip155:8453)`)
  const contracts = splitList(values.contracts)
  for (const contract of contracts ?? [])
    if (!/^0x[0-9a-fA-F]{40}$/.test(contract) && !isSolanaProgramId(contract))
      throw new Error(`--contracts: ${contract} is not an address or a Solana program id`)
  const methods = splitList(values.methods)
  for (const method of methods ?? [])
    if (!(walletRpcMethods as readonly string[]).includes(method))
      throw new Error(`--methods: ${method} is not one of ${walletRpcMethods.join(', ')}`)
  const wei = (flag: string) => {
    const value = values[flag]
    if (typeof value !== 'string') return null
    if (!/^[0-9]{1,78}$/.test(value))
      throw new Error(`--${flag}: ${value} is not a whole number of wei`)
    return BigInt(value)
  }
  return {
    chains,
    contracts: contracts?.map(canonicalContract) ?? null,
    methods: methods as DelegationPolicy['methods'],
    maxValuePerTx: wei('max-value-per-tx'),
    maxValuePerDay: wei('max-value-per-day'),
  }
}

const policyJson = (policy: DelegationPolicy) => ({
  chains: policy.chains,
  contracts: policy.contracts,
  methods: policy.methods,
  max_value_per_tx: policy.maxValuePerTx?.toString() ?? null,
  max_value_per_day: policy.maxValuePerDay?.toString() ?? null,
})

/** Runs `apps delegation-policy <action>`; the exit code. */
export async function delegationPolicyCommand(
  input: DelegationPolicyCommandInput,
): Promise<number> {
  const { db, positionals, values, out, err } = input
  const action = input.key.split(' ')[2]
  const [appId = ''] = positionals
  const app = await db.selectFrom('apps').select('id').where('id', '=', appId).executeTakeFirst()
  if (!app) {
    err(`No app ${appId}`)
    return 1
  }
  if (action === 'set') {
    let policy: DelegationPolicy
    try {
      policy = policyFromFlags(values)
    } catch (error) {
      err((error as Error).message)
      return 1
    }
    await setDelegationPolicy(db, appId, policy, input.now ?? Date.now())
    if (values.json === true) out(JSON.stringify(policyJson(policy)))
    else out(`Delegation policy of ${appId} set.`)
    return 0
  }
  if (action === 'show') {
    const policy = await getDelegationPolicy(db, appId)
    if (values.json === true) out(JSON.stringify(policy ? policyJson(policy) : null))
    else if (!policy) out('No delegation policy: every delegated request is refused.')
    else
      for (const [name, value] of Object.entries(policyJson(policy)))
        out(`${name}: ${value === null ? 'any' : Array.isArray(value) ? value.join(', ') : value}`)
    return 0
  }
  const cleared = await clearDelegationPolicy(db, appId)
  out(cleared ? `Delegation policy of ${appId} removed.` : 'There was no delegation policy.')
  return 0
}
