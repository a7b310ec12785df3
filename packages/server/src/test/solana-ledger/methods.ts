import { createHash } from 'node:crypto'
import { base58, base64 } from '@scure/base'
import {
  type Address,
  accountJson,
  addressParam,
  config,
  currentSlot,
  decimalsOf,
  type Handler,
  invalidParams,
  type LedgerContext,
  withContext,
} from './context.ts'
import { isTokenProgram, readMint, readTokenAccount, uiTokenAmount } from './token.ts'
import { transactionMethods } from './transactions.ts'
import { messageFee, parseMessage } from './wire.ts'

/** Blocks a blockhash stays valid for on a real cluster (here: until `expireBlockhash`). */
const BLOCKHASH_VALIDITY = 150n
const GENESIS_HASH = base58.encode(createHash('sha256').update('latchkey-solana-ledger').digest())

function accountInfo(ctx: LedgerContext, address: unknown, cfg: Record<string, unknown>) {
  const account = ctx.svm.getAccount(addressParam(address))
  return account.exists ? accountJson(ctx, account, cfg) : null
}

function tokenAccountsByOwner(ctx: LedgerContext, params: unknown[]) {
  const owner = addressParam(params[0])
  const filter = config(params, 1)
  let program: string
  if (typeof filter.programId === 'string') program = filter.programId
  else if (typeof filter.mint === 'string') {
    const mint = ctx.svm.getAccount(addressParam(filter.mint))
    if (!mint.exists) return withContext(ctx, [])
    program = mint.programAddress
  } else throw invalidParams('expected a mint or programId filter')
  if (!isTokenProgram(program)) throw invalidParams('unrecognized Token program id')
  const cfg = config(params, 2)
  const accounts = ctx.svm.getProgramAccounts(program as Address).filter((account) => {
    const token = readTokenAccount(account.data as Uint8Array)
    return token?.owner === owner && (filter.mint === undefined || token.mint === filter.mint)
  })
  return withContext(
    ctx,
    accounts.map((account) => ({
      pubkey: account.address,
      account: accountJson(ctx, account, cfg),
    })),
  )
}

function tokenAccountBalance(ctx: LedgerContext, address: unknown) {
  const account = ctx.svm.getAccount(addressParam(address))
  if (!account.exists) throw invalidParams('could not find account')
  const token = isTokenProgram(account.programAddress)
    ? readTokenAccount(account.data as Uint8Array)
    : null
  if (!token) throw invalidParams('not a Token account')
  return withContext(ctx, uiTokenAmount(token.amount, decimalsOf(ctx, token.mint)))
}

function tokenSupply(ctx: LedgerContext, address: unknown) {
  const account = ctx.svm.getAccount(addressParam(address))
  const mint = account.exists ? readMint(account.data as Uint8Array) : null
  if (!mint) throw invalidParams('not a Token mint')
  return withContext(ctx, uiTokenAmount(mint.supply, mint.decimals))
}

function feeForMessage(ctx: LedgerContext, encoded: unknown) {
  let message: ReturnType<typeof parseMessage>
  try {
    message = parseMessage(base64.decode(String(encoded)))
  } catch (error) {
    throw invalidParams(`invalid message: ${(error as Error).message}`)
  }
  // LiteSVM accepts only its latest blockhash; a real node answers null for an unknown one.
  const valid = message.recentBlockhash === ctx.svm.latestBlockhash()
  return withContext(ctx, valid ? messageFee(message) : null)
}

/**
 * Every JSON-RPC method the ledger answers, by name, in the shapes a Solana
 * validator answers with (u64 values as bigint: the server writes them as
 * JSON numbers).
 */
export function ledgerMethods(ctx: LedgerContext): Record<string, Handler> {
  const slot = () => currentSlot(ctx)
  return {
    ...transactionMethods(ctx),
    getAccountInfo: (params) => withContext(ctx, accountInfo(ctx, params[0], config(params, 1))),
    getMultipleAccounts: (params) => {
      const addresses = Array.isArray(params[0]) ? params[0] : []
      if (addresses.length > 100) throw invalidParams('Too many inputs provided; max 100')
      const cfg = config(params, 1)
      return withContext(
        ctx,
        addresses.map((address) => accountInfo(ctx, address, cfg)),
      )
    },
    getBalance: (params) => withContext(ctx, ctx.svm.getBalance(addressParam(params[0])) ?? 0n),
    getLatestBlockhash: () =>
      withContext(ctx, {
        blockhash: ctx.svm.latestBlockhash(),
        lastValidBlockHeight: slot() + BLOCKHASH_VALIDITY,
      }),
    isBlockhashValid: (params) => withContext(ctx, params[0] === ctx.svm.latestBlockhash()),
    getFeeForMessage: (params) => feeForMessage(ctx, params[0]),
    getRecentPrioritizationFees: () => [],
    getMinimumBalanceForRentExemption: (params) => {
      const length = Number(params[0] ?? 0)
      if (!Number.isInteger(length) || length < 0) throw invalidParams('expected a data length')
      return ctx.svm.minimumBalanceForRentExemption(BigInt(length))
    },
    getTokenAccountBalance: (params) => tokenAccountBalance(ctx, params[0]),
    getTokenAccountsByOwner: (params) => tokenAccountsByOwner(ctx, params),
    getTokenSupply: (params) => tokenSupply(ctx, params[0]),
    getSlot: slot,
    getBlockHeight: slot,
    getEpochInfo: () => {
      const clock = ctx.svm.getClock()
      const slotsInEpoch = ctx.svm.getEpochSchedule().slotsPerEpoch
      return {
        absoluteSlot: clock.slot,
        blockHeight: clock.slot,
        epoch: clock.epoch,
        slotIndex: clock.slot % slotsInEpoch,
        slotsInEpoch,
        transactionCount: BigInt(ctx.history.size),
      }
    },
    getGenesisHash: () => GENESIS_HASH,
    getHealth: () => 'ok',
    getIdentity: () => ({ identity: GENESIS_HASH }),
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 0 }),
    getTransactionCount: () => BigInt(ctx.history.size),
  }
}
