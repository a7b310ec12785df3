import type { WalletRpcMethod } from '@latchkey/protocol'
import type { Kysely } from 'kysely'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'

/*
 * An app's delegation policy (docs/delegated-actions.md "Policies"): which
 * chains, contracts (`to` addresses) and methods a delegated wallet may be
 * used for, and how much value (wei) per transaction and per wallet per 24
 * hours. Unset fields do not limit. An app WITHOUT a policy is refused every
 * delegated request: the app's operator opts in (`latchkey apps
 * delegation-policy set`), so a leaked app secret of an app that never meant
 * to use delegation signs nothing.
 */

export interface DelegationPolicy {
  /** CAIP-2 chains (`eip155:1`); null: any. */
  chains: string[] | null
  /** Lowercase `to` addresses of Ethereum transactions; null: any. */
  contracts: string[] | null
  methods: WalletRpcMethod[] | null
  /** Wei; null: no limit. */
  maxValuePerTx: bigint | null
  /** Wei, per wallet over the last 24 hours of signed transactions; null: no limit. */
  maxValuePerDay: bigint | null
}

/** The window of the daily cap. */
export const DAILY_WINDOW_MS = 24 * 60 * 60_000

const list = (text: string | null) => (text === null ? null : (JSON.parse(text) as string[]))
const wei = (text: string | null) => (text === null ? null : BigInt(text))

export async function getDelegationPolicy(
  db: Kysely<Database>,
  appId: string,
): Promise<DelegationPolicy | null> {
  const row = await db
    .selectFrom('delegation_policies')
    .selectAll()
    .where('app_id', '=', appId)
    .executeTakeFirst()
  if (!row) return null
  return {
    chains: list(row.chains),
    contracts: list(row.contracts),
    methods: list(row.methods) as WalletRpcMethod[] | null,
    maxValuePerTx: wei(row.max_value_per_tx),
    maxValuePerDay: wei(row.max_value_per_day),
  }
}

/** Sets (replaces) the app's policy. */
export async function setDelegationPolicy(
  db: Kysely<Database>,
  appId: string,
  policy: DelegationPolicy,
  now: number,
): Promise<void> {
  const row = {
    chains: policy.chains ? JSON.stringify(policy.chains) : null,
    contracts: policy.contracts
      ? JSON.stringify(policy.contracts.map((address) => address.toLowerCase()))
      : null,
    methods: policy.methods ? JSON.stringify(policy.methods) : null,
    max_value_per_tx: policy.maxValuePerTx === null ? null : policy.maxValuePerTx.toString(),
    max_value_per_day: policy.maxValuePerDay === null ? null : policy.maxValuePerDay.toString(),
    updated_at: now,
  }
  await db
    .insertInto('delegation_policies')
    .values({ app_id: appId, ...row })
    .onConflict((oc) => oc.column('app_id').doUpdateSet(row))
    .execute()
}

/** Removes the app's policy: delegated requests are refused again. */
export async function clearDelegationPolicy(db: Kysely<Database>, appId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('delegation_policies')
    .where('app_id', '=', appId)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

/** What a request asks for, as the policy reads it. */
export interface PolicyRequest {
  method: WalletRpcMethod
  caip2: string | null
  /** Ethereum transactions: the recipient (lowercase). */
  to: string | null
  /** Ethereum transactions: wei. */
  value: bigint | null
  /** Sends and transaction signatures. */
  isTransaction: boolean
}

const violation = (rule: string, detail: string) =>
  new ApiError('DELEGATION_POLICY_VIOLATION', `Refused by the app's delegation policy: ${detail}`, {
    rule,
  })

/**
 * Throws DELEGATION_POLICY_VIOLATION (details `{ rule }`: policy, method,
 * chain, contract, max_value_per_tx) or DELEGATION_DAILY_CAP_REACHED.
 * `spentToday` is read only when the policy has a daily cap.
 */
export async function checkPolicy(
  policy: DelegationPolicy | null,
  request: PolicyRequest,
  spentToday: () => Promise<bigint>,
): Promise<void> {
  if (!policy) throw violation('policy', 'the app has no delegation policy')
  if (policy.methods && !policy.methods.includes(request.method))
    throw violation('method', `method ${request.method} is not allowed`)
  if (policy.chains && (request.caip2 !== null || request.isTransaction)) {
    if (request.caip2 === null || !policy.chains.includes(request.caip2))
      throw violation('chain', `chain ${request.caip2 ?? '(none)'} is not allowed`)
  }
  if (policy.contracts && request.isTransaction && request.to !== null) {
    if (!policy.contracts.includes(request.to))
      throw violation('contract', `contract ${request.to} is not allowed`)
  }
  const value = request.value ?? 0n
  if (policy.maxValuePerTx !== null && value > policy.maxValuePerTx)
    throw violation('max_value_per_tx', `value ${value} is above ${policy.maxValuePerTx} wei`)
  if (policy.maxValuePerDay !== null && request.isTransaction) {
    const spent = await spentToday()
    if (spent + value > policy.maxValuePerDay)
      throw new ApiError(
        'DELEGATION_DAILY_CAP_REACHED',
        `The wallet sent ${spent} wei in the last 24 hours; the app's daily cap is ${policy.maxValuePerDay} wei.`,
        { rule: 'max_value_per_day' },
      )
  }
}
