import { randomBytes } from 'node:crypto'
import { base58, base64 } from '@scure/base'
import {
  addressParam,
  config,
  credit,
  currentSlot,
  type Handler,
  type LandedTransaction,
  type LedgerContext,
  RpcError,
  withContext,
} from './context.ts'
import { isWritable, type ParsedTransaction } from './wire.ts'

const getSignatureStatuses: (ctx: LedgerContext) => Handler = (ctx) => (params) => {
  const signatures = Array.isArray(params[0]) ? (params[0] as string[]) : []
  if (signatures.length > 256) throw new RpcError(-32602, 'Too many inputs provided; max 256')
  return withContext(
    ctx,
    signatures.map((signature) => {
      const landed = ctx.history.get(signature)
      if (!landed) return null
      const { slot, err } = landed
      const status = err === null ? { Ok: null } : { Err: err }
      return { slot, confirmations: null, err, status, confirmationStatus: 'finalized' }
    }),
  )
}

function encodeTransaction(landed: LandedTransaction, tx: ParsedTransaction, encoding: unknown) {
  const wire = landed.wire ?? new Uint8Array()
  if (encoding === 'base64') return [base64.encode(wire), 'base64']
  if (encoding === 'base58') return [base58.encode(wire), 'base58']
  const signatures = tx.signatures.map((s) => base58.encode(s))
  const lookups =
    tx.version === 0
      ? {
          addressTableLookups: tx.addressTableLookups.map((l) => ({
            accountKey: l.accountKey,
            writableIndexes: l.writableIndexes,
            readonlyIndexes: l.readonlyIndexes,
          })),
        }
      : {}
  const data = (bytes: Uint8Array) => base58.encode(bytes)
  if (encoding === 'jsonParsed') {
    const { writable, readonly } = landed.loaded
    const keys = [...tx.accountKeys, ...writable, ...readonly]
    const accountKeys = keys.map((pubkey, i) => ({
      pubkey,
      signer: i < tx.header.numRequiredSignatures,
      source: i < tx.accountKeys.length ? 'transaction' : 'lookupTable',
      writable:
        i < tx.accountKeys.length ? isWritable(tx, i) : i < tx.accountKeys.length + writable.length,
    }))
    const instructions = tx.instructions.map((ix) => ({
      accounts: ix.accounts.map((i) => keys[i]),
      data: data(ix.data),
      programId: keys[ix.programIdIndex],
      stackHeight: null,
    }))
    const message = { accountKeys, instructions, recentBlockhash: tx.recentBlockhash, ...lookups }
    return { message, signatures }
  }
  if (encoding !== 'json')
    throw new RpcError(-32602, `Invalid params: unsupported encoding ${String(encoding)}`)
  const instructions = tx.instructions.map((ix) => ({
    accounts: ix.accounts,
    data: data(ix.data),
    programIdIndex: ix.programIdIndex,
    stackHeight: null,
  }))
  const { header, accountKeys, recentBlockhash } = tx
  return { message: { accountKeys, header, instructions, recentBlockhash, ...lookups }, signatures }
}

const getTransaction: (ctx: LedgerContext) => Handler = (ctx) => (params) => {
  const cfg = typeof params[1] === 'string' ? { encoding: params[1] } : config(params, 1)
  const landed = typeof params[0] === 'string' ? ctx.history.get(params[0]) : undefined
  if (!landed?.tx) return null
  const { tx, err } = landed
  const maxVersion = cfg.maxSupportedTransactionVersion
  if (tx.version === 0 && maxVersion === undefined) {
    throw new RpcError(
      -32015,
      'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
    )
  }
  return {
    blockTime: landed.blockTime,
    meta: {
      computeUnitsConsumed: landed.unitsConsumed,
      err,
      fee: landed.fee,
      innerInstructions: [],
      loadedAddresses: landed.loaded,
      logMessages: landed.logs,
      postBalances: landed.postBalances,
      postTokenBalances: landed.postTokenBalances,
      preBalances: landed.preBalances,
      preTokenBalances: landed.preTokenBalances,
      rewards: [],
      status: err === null ? { Ok: null } : { Err: err },
    },
    slot: landed.slot,
    transaction: encodeTransaction(landed, tx, cfg.encoding ?? 'json'),
    ...(maxVersion === undefined ? {} : { version: tx.version }),
  }
}

/** Credits the account at once and records a successful status under a fresh signature. */
const requestAirdrop: (ctx: LedgerContext) => Handler = (ctx) => (params) => {
  const address = addressParam(params[0])
  const lamports = BigInt(params[1] as number)
  credit(ctx, address, lamports)
  const signature = base58.encode(randomBytes(64))
  ctx.history.set(signature, {
    slot: currentSlot(ctx),
    blockTime: Math.floor(Date.now() / 1000),
    err: null,
    logs: [],
    fee: 0n,
    preBalances: [],
    postBalances: [],
    preTokenBalances: [],
    postTokenBalances: [],
    unitsConsumed: 0n,
    loaded: { writable: [], readonly: [] },
  })
  return signature
}

/** getSignatureStatuses, getTransaction (json, jsonParsed, base64, base58) and requestAirdrop. */
export function historyMethods(ctx: LedgerContext): Record<string, Handler> {
  return {
    getSignatureStatuses: getSignatureStatuses(ctx),
    getTransaction: getTransaction(ctx),
    requestAirdrop: requestAirdrop(ctx),
  }
}
