import { base58, base64 } from '@scure/base'
import { FailedTransactionMetadata, type LiteSVM, type TransactionMetadata } from 'litesvm'
import {
  type Address,
  accountJson,
  addressParam,
  config,
  currentSlot,
  decimalsOf,
  type Handler,
  type KitTransaction,
  type LedgerContext,
  RpcError,
  withContext,
} from './context.ts'
import { historyMethods } from './history.ts'
import { isTokenProgram, readLookupTable, readTokenAccount, uiTokenAmount } from './token.ts'
import { landedWith, transactionErrorJson, transactionErrorText } from './tx-error.ts'
import {
  decodeEncoded,
  messageFee,
  type ParsedTransaction,
  parseTransaction,
  WireError,
  withBlockhash,
} from './wire.ts'

function parseOrThrow(encoded: unknown, encoding: unknown): [ParsedTransaction, Uint8Array] {
  try {
    const wire = decodeEncoded(encoded, encoding)
    return [parseTransaction(wire), wire]
  } catch (error) {
    if (error instanceof WireError || error instanceof Error) {
      throw new RpcError(-32602, `invalid transaction: ${error.message}`)
    }
    throw error
  }
}

/** The kit `Transaction` LiteSVM takes: message bytes and signatures keyed by signer. */
function kitTransaction(tx: ParsedTransaction): KitTransaction {
  const signers = tx.accountKeys.slice(0, tx.header.numRequiredSignatures)
  const signatures = Object.fromEntries(signers.map((key, i) => [key, tx.signatures[i]]))
  return { messageBytes: tx.messageBytes, signatures } as unknown as KitTransaction
}

/** Runs `run` with signature verification on or off, then restores the setting. */
function withSigverify<T>(svm: LiteSVM, on: boolean, run: () => T): T {
  const inner = (svm as unknown as { inner: { getSigverify(): boolean } }).inner
  const was = inner.getSigverify()
  if (was === on) return run()
  svm.withSigverify(on)
  try {
    return run()
  } finally {
    svm.withSigverify(was)
  }
}

/** The addresses a v0 transaction loads from its lookup tables. */
function loadedAddresses(ctx: LedgerContext, tx: ParsedTransaction) {
  const writable: string[] = []
  const readonly: string[] = []
  for (const lookup of tx.addressTableLookups) {
    const table = ctx.svm.getAccount(lookup.accountKey as Address)
    const held = table.exists ? readLookupTable(table.data as Uint8Array) : []
    const at = (i: number) => held[i] ?? ''
    writable.push(...lookup.writableIndexes.map(at))
    readonly.push(...lookup.readonlyIndexes.map(at))
  }
  return { writable, readonly }
}

function tokenBalances(ctx: LedgerContext, keys: string[]) {
  return keys.flatMap((key, accountIndex) => {
    const account = ctx.svm.getAccount(key as Address)
    if (!account.exists || !isTokenProgram(account.programAddress)) return []
    const token = readTokenAccount(account.data as Uint8Array)
    if (!token) return []
    const { mint, owner, amount } = token
    const uiTokenAmountValue = uiTokenAmount(amount, decimalsOf(ctx, mint))
    const programId = account.programAddress
    return [{ accountIndex, mint, owner, programId, uiTokenAmount: uiTokenAmountValue }]
  })
}

/** Sends through LiteSVM and records the outcome, unless it never landed (no fee paid). */
function land(ctx: LedgerContext, tx: ParsedTransaction, wire: Uint8Array, signature: string) {
  const loaded = loadedAddresses(ctx, tx)
  const keys = [...tx.accountKeys, ...loaded.writable, ...loaded.readonly]
  const balances = () => keys.map((key) => BigInt(ctx.svm.getBalance(key as Address) ?? 0n))
  const preBalances = balances()
  const preTokenBalances = tokenBalances(ctx, keys)
  const result = ctx.svm.sendTransaction(kitTransaction(tx))
  const failed = result instanceof FailedTransactionMetadata
  const err = failed ? transactionErrorJson(result.err()) : null
  // A real validator drops what cannot pay its fee (bad signature, stale blockhash, no funds).
  const inHistory = ctx.svm.getTransaction(signature as Parameters<LiteSVM['getTransaction']>[0])
  if (err !== null && !landedWith(err) && inHistory === null) return
  const meta: TransactionMetadata = failed ? result.meta() : result
  ctx.history.set(signature, {
    slot: currentSlot(ctx),
    blockTime: Math.floor(Date.now() / 1000),
    tx,
    wire,
    err,
    logs: meta.logs(),
    fee: messageFee(tx),
    preBalances,
    postBalances: balances(),
    preTokenBalances,
    postTokenBalances: tokenBalances(ctx, keys),
    unitsConsumed: meta.computeUnitsConsumed(),
    loaded,
  })
}

function preflightError(failed: FailedTransactionMetadata): RpcError {
  const err = transactionErrorJson(failed.err())
  if (err === 'SignatureFailure') {
    return new RpcError(-32003, 'Transaction signature verification failure')
  }
  const meta = failed.meta()
  return new RpcError(-32002, `Transaction simulation failed: ${transactionErrorText(err)}`, {
    accounts: null,
    err,
    innerInstructions: null,
    loadedAccountsDataSize: 0,
    logs: meta.logs(),
    replacementBlockhash: null,
    returnData: null,
    unitsConsumed: meta.computeUnitsConsumed(),
  })
}

const sendTransaction: (ctx: LedgerContext) => Handler = (ctx) => (params) => {
  const cfg = config(params, 1)
  const [tx, wire] = parseOrThrow(params[0], cfg.encoding)
  const signature = base58.encode(tx.signatures[0] ?? new Uint8Array(64))
  if (!cfg.skipPreflight) {
    const simulated = ctx.svm.simulateTransaction(kitTransaction(tx))
    if (simulated instanceof FailedTransactionMetadata) throw preflightError(simulated)
  }
  if (!ctx.history.has(signature)) land(ctx, tx, wire, signature)
  return signature
}

const simulateTransaction: (ctx: LedgerContext) => Handler = (ctx) => (params) => {
  const cfg = config(params, 1)
  let [tx] = parseOrThrow(params[0], cfg.encoding)
  const sigVerify = cfg.sigVerify === true
  let replacementBlockhash = null
  if (cfg.replaceRecentBlockhash) {
    if (sigVerify) {
      throw new RpcError(-32602, 'sigVerify may not be used with replaceRecentBlockhash')
    }
    const blockhash = ctx.svm.latestBlockhash()
    tx = withBlockhash(tx, blockhash)
    replacementBlockhash = { blockhash, lastValidBlockHeight: currentSlot(ctx) + 150n }
  }
  const result = withSigverify(ctx.svm, sigVerify, () =>
    ctx.svm.simulateTransaction(kitTransaction(tx)),
  )
  const failed = result instanceof FailedTransactionMetadata
  const err = failed ? transactionErrorJson(result.err()) : null
  if (err === 'SignatureFailure' && sigVerify) throw preflightError(result as never)
  const meta = result.meta()
  const returned = meta.returnData()
  const wanted = config([cfg.accounts], 0)
  const addresses = Array.isArray(wanted.addresses) ? (wanted.addresses as string[]) : null
  const post = failed ? [] : result.postAccounts()
  const accounts =
    addresses && !failed
      ? addresses.map((address) => {
          const after = post.find((a) => a.address === address)
          if (after) return accountJson(ctx, after, wanted)
          const now = ctx.svm.getAccount(addressParam(address))
          return now.exists ? accountJson(ctx, now, wanted) : null
        })
      : null
  return withContext(ctx, {
    accounts,
    err,
    innerInstructions: null,
    loadedAccountsDataSize: 0,
    logs: meta.logs(),
    replacementBlockhash,
    returnData: returned.data().length
      ? {
          programId: base58.encode(returned.programId()),
          data: [base64.encode(returned.data()), 'base64'],
        }
      : null,
    unitsConsumed: meta.computeUnitsConsumed(),
  })
}

/** sendTransaction and simulateTransaction, plus what reads the history they write. */
export function transactionMethods(ctx: LedgerContext): Record<string, Handler> {
  return {
    sendTransaction: sendTransaction(ctx),
    simulateTransaction: simulateTransaction(ctx),
    ...historyMethods(ctx),
  }
}
