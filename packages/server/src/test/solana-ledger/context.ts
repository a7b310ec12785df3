import { base58, base64 } from '@scure/base'
import type { LiteSVM } from 'litesvm'
import {
  ADDRESS_LOOKUP_TABLE_PROGRAM,
  parsedLookupTable,
  parsedTokenData,
  readMint,
} from './token.ts'
import type { TransactionErrorJson } from './tx-error.ts'
import type { ParsedTransaction } from './wire.ts'

// @solana/kit's branded types, taken from LiteSVM's signatures (the server does not depend on kit).
export type Address = Parameters<LiteSVM['getBalance']>[0]
export type KitTransaction = Parameters<LiteSVM['sendTransaction']>[0]
export type KitAccount = Parameters<LiteSVM['setAccount']>[0]

/** What the ledger remembers of a transaction that landed (ran and paid its fee). */
export interface LandedTransaction {
  slot: bigint
  blockTime: number
  /** Absent for `requestAirdrop`, which has no transaction of its own here. */
  tx?: ParsedTransaction
  wire?: Uint8Array
  err: TransactionErrorJson | null
  logs: string[]
  fee: bigint
  preBalances: bigint[]
  postBalances: bigint[]
  preTokenBalances: unknown[]
  postTokenBalances: unknown[]
  unitsConsumed: bigint
  loaded: { writable: string[]; readonly: string[] }
}

export interface LedgerContext {
  svm: LiteSVM
  /** By base58 signature; what getSignatureStatuses and getTransaction read. */
  history: Map<string, LandedTransaction>
}

/** A JSON-RPC error answer (`{ code, message, data }`). */
export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}

export type Handler = (params: unknown[]) => unknown

export const invalidParams = (detail: string) => new RpcError(-32602, `Invalid params: ${detail}`)

/** A u64 the validator answers for rent-exempt accounts' `rentEpoch`. */
const U64_MAX = 18_446_744_073_709_551_615n

export const currentSlot = (ctx: LedgerContext) => ctx.svm.getClock().slot

/** `{ context: { slot }, value }`, the wrapper of most account and chain queries. */
export const withContext = (ctx: LedgerContext, value: unknown) => ({
  context: { apiVersion: '2.2.0', slot: currentSlot(ctx) },
  value,
})

/** The `config` object at `params[index]`, or `{}`. */
export function config(params: unknown[], index: number): Record<string, unknown> {
  const value = params[index]
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {}
}

export function addressParam(value: unknown): Address {
  if (typeof value !== 'string') throw invalidParams('expected a base58 address')
  try {
    if (base58.decode(value).length === 32) return value as Address
  } catch {}
  throw invalidParams(`invalid address ${value}`)
}

export const decimalsOf = (ctx: LedgerContext, mint: string): number => {
  const account = ctx.svm.getAccount(mint as Address)
  return (account.exists && readMint(account.data as Uint8Array)?.decimals) || 0
}

/** An account as `getAccountInfo` answers it, in `encoding` (base64, base58 or jsonParsed). */
export function accountJson(
  ctx: LedgerContext,
  account: Omit<KitAccount, 'address' | 'space'>,
  cfg: Record<string, unknown> = {},
): Record<string, unknown> {
  const bytes = account.data as Uint8Array
  const base = {
    executable: account.executable,
    lamports: BigInt(account.lamports),
    owner: account.programAddress,
    rentEpoch: U64_MAX,
    space: account.data.length,
  }
  const encoding = cfg.encoding ?? 'base64'
  if (encoding === 'jsonParsed') {
    const parsed = parsedTokenData(account.programAddress, bytes, (mint) => decimalsOf(ctx, mint))
    if (parsed) return { ...base, data: parsed }
    if (account.programAddress === ADDRESS_LOOKUP_TABLE_PROGRAM && bytes.length >= 56) {
      return { ...base, data: parsedLookupTable(bytes) }
    }
  }
  const slice = cfg.dataSlice as { offset?: number; length?: number } | undefined
  const data = slice
    ? bytes.slice(slice.offset ?? 0, (slice.offset ?? 0) + (slice.length ?? 0))
    : bytes
  if (encoding === 'base58') return { ...base, data: [base58.encode(data), 'base58'] }
  if (encoding === 'base64' || encoding === 'jsonParsed') {
    return { ...base, data: [base64.encode(data), 'base64'] }
  }
  throw invalidParams(`unsupported encoding ${String(encoding)}`)
}

/** Adds lamports to an account, creating a system account if none exists. */
export function credit(ctx: LedgerContext, address: Address, lamports: bigint): void {
  const account = ctx.svm.getAccount(address)
  if (account.exists) {
    const { exists: _, ...rest } = account
    const total = (BigInt(account.lamports) + lamports) as KitAccount['lamports']
    ctx.svm.setAccount({ ...rest, lamports: total })
    return
  }
  ctx.svm.setAccount({
    address,
    lamports: lamports as KitAccount['lamports'],
    data: new Uint8Array(),
    space: 0n,
    programAddress: '11111111111111111111111111111111' as Address,
    executable: false,
  })
}
