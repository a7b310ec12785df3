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
  /**
   * What transactions may call; null: any. Ethereum: lowercase `to`
   * addresses. Solana: program ids (base58, case kept), every program the
   * transaction's instructions invoke must be listed.
   */
  contracts: string[] | null
  methods: WalletRpcMethod[] | null
  /** Wei; null: no limit. */
  maxValuePerTx: bigint | null
  /** Wei, per wallet over the last 24 hours of signed (or pending) Ethereum transactions; null: no limit. */
  maxValuePerDay: bigint | null
}

/** An Ethereum address in lowercase; a Solana program id (base58) as it is. */
export const canonicalContract = (contract: string) =>
  contract.startsWith('0x') ? contract.toLowerCase() : contract

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
    contracts: policy.contracts ? JSON.stringify(policy.contracts.map(canonicalContract)) : null,
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
  /**
   * What the transaction calls, checked against `contracts`: an Ethereum
   * transaction's `to` (lowercase), every program a Solana transaction's
   * instructions invoke (base58). Empty for anything else.
   */
  programs: string[]
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
 * chain, contract, max_value_per_tx). The daily cap is not checked here: it
 * needs the ledger, and is checked where the value is reserved in it
 * (audit.ts `reserveDailyValue`), with {@link dailyCapFor}.
 */
export function checkPolicy(policy: DelegationPolicy | null, request: PolicyRequest): void {
  if (!policy) throw violation('policy', 'the app has no delegation policy')
  if (policy.methods && !policy.methods.includes(request.method))
    throw violation('method', `method ${request.method} is not allowed`)
  if (policy.chains && (request.caip2 !== null || request.isTransaction)) {
    if (request.caip2 === null || !policy.chains.includes(request.caip2))
      throw violation('chain', `chain ${request.caip2 ?? '(none)'} is not allowed`)
  }
  if (policy.contracts && request.isTransaction) {
    const outside = request.programs.find((program) => !policy.contracts?.includes(program))
    if (outside !== undefined) throw violation('contract', `contract ${outside} is not allowed`)
  }
  const value = request.value ?? 0n
  if (policy.maxValuePerTx !== null && value > policy.maxValuePerTx)
    throw violation('max_value_per_tx', `value ${value} is above ${policy.maxValuePerTx} wei`)
}

/** The daily cap (wei) this request counts against; null when none applies. */
export function dailyCapFor(policy: DelegationPolicy, request: PolicyRequest): bigint | null {
  return request.isTransaction && request.value !== null ? policy.maxValuePerDay : null
}
