// @vitest-environment node
import { type SolanaLedger, startSolanaLedger } from '@latchkey/server/test/solana'
import {
  address,
  createNoopSigner,
  generateKeyPairSigner,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
} from '@solana/kit'
import { getCreateAccountInstruction } from '@solana-program/system'
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LatchkeyError } from '../../errors.ts'
import { transferSol, unsignedWire } from './ledger.test-helper.ts'
import { prepareSolanaTransaction, refreshBlockhash } from './prepare.ts'
import { createSolanaClient, type SolanaClient } from './rpc.ts'

const SOL = 1_000_000_000n
let ledger: SolanaLedger
let rpc: SolanaClient

beforeAll(async () => {
  ledger = await startSolanaLedger()
  rpc = createSolanaClient(ledger.rpcUrl)
})
afterAll(() => ledger.stop())

async function wallet(lamports: bigint) {
  const signer = await generateKeyPairSigner()
  if (lamports) ledger.airdrop(signer.address, lamports)
  return signer.address
}

const blockhashOf = (wire: Uint8Array) =>
  getCompiledTransactionMessageDecoder().decode(getTransactionDecoder().decode(wire).messageBytes)
    .lifetimeToken

describe('prepareSolanaTransaction', () => {
  it('prices a SOL transfer, decodes it and finds the funds', async () => {
    const from = await wallet(2n * SOL)
    const to = await wallet(0n)
    const transaction = await unsignedWire(rpc, from, [transferSol(from, to, SOL)], {
      version: 'legacy',
    })
    const prepared = await prepareSolanaTransaction({ rpc, wallet: from, transaction })
    expect(prepared).toEqual({
      fee: 5000n,
      spender: from,
      instructions: [{ type: 'sol-transfer', from, to, lamports: SOL }],
      balance: 2n * SOL,
      hasFunds: true,
      version: 'legacy',
    })
  })

  it('counts the fee and the lamports the wallet sends, create-account included', async () => {
    const from = await wallet(SOL + 4999n)
    const to = await wallet(0n)
    const exact = await unsignedWire(rpc, from, [transferSol(from, to, SOL - 1n)])
    expect(
      (await prepareSolanaTransaction({ rpc, wallet: from, transaction: exact })).hasFunds,
    ).toBe(true)
    const over = await unsignedWire(rpc, from, [transferSol(from, to, SOL)])
    const prepared = await prepareSolanaTransaction({ rpc, wallet: from, transaction: over })
    expect(prepared).toMatchObject({
      fee: 5000n,
      balance: SOL + 4999n,
      hasFunds: false,
      version: 0,
    })

    const account = await generateKeyPairSigner()
    const create = getCreateAccountInstruction({
      payer: createNoopSigner(from),
      newAccount: account,
      lamports: SOL,
      space: 165,
      programAddress: TOKEN_PROGRAM_ADDRESS,
    })
    const creating = await unsignedWire(rpc, from, [create])
    const created = await prepareSolanaTransaction({ rpc, wallet: from, transaction: creating })
    // Two signers: the wallet and the new account.
    expect(created).toMatchObject({ fee: 10_000n, hasFunds: false })
    expect(created.instructions[0]).toMatchObject({ type: 'create-account', lamports: SOL })
  })

  it('reads lookup tables so a v0 transfer names its real recipient', async () => {
    const from = await wallet(2n * SOL)
    const to = await wallet(0n)
    const table = address(ledger.createLookupTable([to]))
    const transaction = await unsignedWire(rpc, from, [transferSol(from, to, SOL)], {
      lookupTables: { [table]: [to] },
    })
    const prepared = await prepareSolanaTransaction({ rpc, wallet: from, transaction })
    expect(prepared.version).toBe(0)
    expect(prepared.instructions).toEqual([{ type: 'sol-transfer', from, to, lamports: SOL }])
  })

  it('still prices a transaction whose blockhash expired', async () => {
    const from = await wallet(2n * SOL)
    const transaction = await unsignedWire(rpc, from, [transferSol(from, from, 1n)])
    ledger.svm.expireBlockhash()
    const prepared = await prepareSolanaTransaction({ rpc, wallet: from, transaction })
    expect(prepared.fee).toBe(5000n)
  })

  it('refuses bytes that are not a transaction, and says when the node cannot be read', async () => {
    const garbage = prepareSolanaTransaction({ rpc, wallet: 'x', transaction: new Uint8Array(3) })
    await expect(garbage).rejects.toMatchObject({ code: 'INVALID_TRANSACTION_REQUEST' })

    const from = await wallet(SOL)
    const transaction = await unsignedWire(rpc, from, [transferSol(from, from, 1n)])
    const down = createSolanaClient('http://127.0.0.1:9')
    const error = await prepareSolanaTransaction({ rpc: down, wallet: from, transaction }).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(LatchkeyError)
    expect((error as LatchkeyError).code).toBe('TRANSACTION_PREPARE_ERROR')
  })
})

describe('refreshBlockhash', () => {
  it('puts the latest blockhash in and clears the signatures', async () => {
    const from = await wallet(SOL)
    const stale = await unsignedWire(rpc, from, [transferSol(from, from, 1n)])
    ledger.svm.expireBlockhash()
    const fresh = await refreshBlockhash(rpc, stale)
    expect(blockhashOf(stale)).not.toBe(ledger.svm.latestBlockhash())
    expect(blockhashOf(fresh)).toBe(ledger.svm.latestBlockhash())
    const { signatures } = getTransactionDecoder().decode(fresh)
    expect(signatures).toEqual({ [from]: null })
    // Same instructions and accounts: only the 32 bytes of the blockhash differ.
    const differing = stale.filter((byte, i) => byte !== fresh[i]).length
    expect(fresh).toHaveLength(stale.length)
    expect(differing).toBeLessThanOrEqual(32)
  })
})
