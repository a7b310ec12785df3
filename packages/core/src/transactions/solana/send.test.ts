// @vitest-environment node
import { type SolanaLedger, startSolanaLedger } from '@latchkey/server/test/solana'
import { type Address, address, createNoopSigner, generateKeyPairSigner } from '@solana/kit'
import { getTransferCheckedInstruction } from '@solana-program/token'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LatchkeyError } from '../../errors.ts'
import { signWith, transferSol, unsignedWire } from './ledger.test-helper.ts'
import { refreshBlockhash } from './prepare.ts'
import { createSolanaClient, type SolanaClient } from './rpc.ts'
import { sendSolanaTransaction } from './send.ts'

const SOL = 1_000_000_000n
let ledger: SolanaLedger
let rpc: SolanaClient

beforeAll(async () => {
  ledger = await startSolanaLedger()
  rpc = createSolanaClient(ledger.rpcUrl)
})
afterAll(() => ledger.stop())

async function fundedWallet(lamports = 2n * SOL) {
  const wallet = await generateKeyPairSigner()
  if (lamports) ledger.airdrop(wallet.address, lamports)
  return wallet
}

const balance = async (who: Address) => (await rpc.getBalance(who).send()).value

async function rejection(promise: Promise<unknown>): Promise<LatchkeyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(LatchkeyError)
  return error as LatchkeyError
}

describe('sendSolanaTransaction', () => {
  it('signs, sends and confirms a SOL transfer, with its fee and logs', async () => {
    const wallet = await fundedWallet()
    const to = (await generateKeyPairSigner()).address
    const transaction = await unsignedWire(rpc, wallet.address, [
      transferSol(wallet.address, to, SOL),
    ])
    const result = await sendSolanaTransaction({
      rpc,
      transaction,
      sign: signWith(wallet),
      pollIntervalMs: 0,
    })
    expect(result.fees).toBe(5000n)
    expect(result.receipt).toEqual({
      slot: expect.any(BigInt),
      err: null,
      logMessages: [
        'Program 11111111111111111111111111111111 invoke [1]',
        'Program 11111111111111111111111111111111 success',
      ],
    })
    expect(result.transaction).not.toEqual(transaction)
    const statuses = await rpc.getSignatureStatuses([result.signature as never]).send()
    expect(statuses.value[0]?.err).toBeNull()
    expect(await balance(to)).toBe(SOL)
    expect(await balance(wallet.address)).toBe(SOL - 5000n)
  })

  it('sends an SPL TransferChecked between associated token accounts', async () => {
    const wallet = await fundedWallet()
    const recipient = (await generateKeyPairSigner()).address
    const mint = ledger.createMint({ decimals: 6 })
    const source = ledger.mintTo({ mint, owner: wallet.address, amount: 1_000_000n })
    const destination = ledger.mintTo({ mint, owner: recipient, amount: 0n })
    const instruction = getTransferCheckedInstruction({
      source: address(source),
      mint: address(mint),
      destination: address(destination),
      authority: createNoopSigner(wallet.address),
      amount: 400_000n,
      decimals: 6,
    })
    const transaction = await unsignedWire(rpc, wallet.address, [instruction], {
      version: 'legacy',
    })
    const result = await sendSolanaTransaction({
      rpc,
      transaction,
      sign: signWith(wallet),
      pollIntervalMs: 0,
    })
    expect(result.receipt.err).toBeNull()
    expect(result.receipt.logMessages).toContain(
      'Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA success',
    )
    const held = await rpc.getTokenAccountBalance(address(destination)).send()
    expect(held.value).toMatchObject({ amount: '400000', decimals: 6, uiAmountString: '0.4' })
  })

  it("rejects a transfer beyond the balance with TRANSACTION_FAILURE and the log's words", async () => {
    const wallet = await fundedWallet(SOL)
    const to = (await generateKeyPairSigner()).address
    const transaction = await unsignedWire(rpc, wallet.address, [
      transferSol(wallet.address, to, 5n * SOL),
    ])
    const error = await rejection(
      sendSolanaTransaction({ rpc, transaction, sign: signWith(wallet), pollIntervalMs: 0 }),
    )
    expect(error.code).toBe('TRANSACTION_FAILURE')
    expect(error.shortMessage).toBe('Transfer: insufficient lamports 999995000, need 5000000000')
    expect(error.details).toEqual({
      signature: expect.any(String),
      logs: expect.arrayContaining(['Transfer: insufficient lamports 999995000, need 5000000000']),
    })
    // The node's simulation refused it: nothing landed, no fee paid.
    expect(await balance(wallet.address)).toBe(SOL)
  })

  it('with skipPreflight, a transaction failing on chain rejects after confirmation, its fee paid', async () => {
    const wallet = await fundedWallet(SOL)
    const to = (await generateKeyPairSigner()).address
    const transaction = await unsignedWire(rpc, wallet.address, [
      transferSol(wallet.address, to, 5n * SOL),
    ])
    const error = await rejection(
      sendSolanaTransaction({
        rpc,
        transaction,
        sign: signWith(wallet),
        skipPreflight: true,
        pollIntervalMs: 0,
      }),
    )
    expect(error.code).toBe('TRANSACTION_FAILURE')
    expect(error.shortMessage).toBe('Transfer: insufficient lamports 999995000, need 5000000000')
    const { signature } = error.details as { signature: string }
    const landed = await rpc.getSignatureStatuses([signature as never]).send()
    expect(landed.value[0]?.err).toEqual({ InstructionError: [0n, { Custom: 1n }] })
    expect(await balance(wallet.address)).toBe(SOL - 5000n)
  })

  it('says INSUFFICIENT_BALANCE when the wallet cannot pay the fee', async () => {
    const wallet = await fundedWallet(0n)
    const to = (await generateKeyPairSigner()).address
    const transaction = await unsignedWire(rpc, wallet.address, [
      transferSol(wallet.address, to, 1n),
    ])
    const error = await rejection(
      sendSolanaTransaction({ rpc, transaction, sign: signWith(wallet), pollIntervalMs: 0 }),
    )
    expect(error.code).toBe('INSUFFICIENT_BALANCE')
  })

  it('says REQUEST_TIMEOUT when the transaction never confirms', async () => {
    // Without preflight, a transaction nobody can pay for is dropped, as on a real cluster.
    const wallet = await fundedWallet(0n)
    const to = (await generateKeyPairSigner()).address
    const transaction = await unsignedWire(rpc, wallet.address, [
      transferSol(wallet.address, to, 1n),
    ])
    const error = await rejection(
      sendSolanaTransaction({
        rpc,
        transaction,
        sign: signWith(wallet),
        skipPreflight: true,
        pollIntervalMs: 0,
        pollAttempts: 3,
      }),
    )
    expect(error.code).toBe('REQUEST_TIMEOUT')
    expect(error.details).toEqual({ signature: expect.any(String), logs: null })
  })

  it('sends a v0 transaction that loads its recipient from a lookup table', async () => {
    const wallet = await fundedWallet()
    const to = (await generateKeyPairSigner()).address
    const table = address(ledger.createLookupTable([to]))
    const transaction = await unsignedWire(
      rpc,
      wallet.address,
      [transferSol(wallet.address, to, SOL)],
      { lookupTables: { [table]: [to] } },
    )
    const result = await sendSolanaTransaction({
      rpc,
      transaction,
      sign: signWith(wallet),
      pollIntervalMs: 0,
    })
    expect(result.receipt.err).toBeNull()
    expect(await balance(to)).toBe(SOL)
  })

  it('a retry on a refreshed blockhash lands what the expired one could not', async () => {
    const wallet = await fundedWallet()
    const to = (await generateKeyPairSigner()).address
    const stale = await unsignedWire(rpc, wallet.address, [transferSol(wallet.address, to, SOL)])
    ledger.svm.expireBlockhash()
    const error = await rejection(
      sendSolanaTransaction({ rpc, transaction: stale, sign: signWith(wallet), pollIntervalMs: 0 }),
    )
    expect(error.code).toBe('TRANSACTION_FAILURE')
    expect(error.shortMessage).toBe('Something went wrong.')

    const fresh = await refreshBlockhash(rpc, stale)
    const result = await sendSolanaTransaction({
      rpc,
      transaction: fresh,
      sign: signWith(wallet),
      pollIntervalMs: 0,
    })
    expect(result.receipt.err).toBeNull()
    expect(await balance(to)).toBe(SOL)
  })

  it('wraps a signer failure as TRANSACTION_SIGN_FAILED and passes LatchkeyErrors through', async () => {
    const wallet = await fundedWallet()
    const transaction = await unsignedWire(rpc, wallet.address, [
      transferSol(wallet.address, wallet.address, 1n),
    ])
    const broken = await rejection(
      sendSolanaTransaction({ rpc, transaction, sign: () => Promise.reject(new Error('boom')) }),
    )
    expect(broken.code).toBe('TRANSACTION_SIGN_FAILED')
    const refused = new LatchkeyError('USER_REJECTED' as never)
    const passed = await rejection(
      sendSolanaTransaction({ rpc, transaction, sign: () => Promise.reject(refused) }),
    )
    expect(passed).toBe(refused)
    const unsigned = await rejection(
      sendSolanaTransaction({ rpc, transaction, sign: async (wire) => wire }),
    )
    expect(unsigned.code).toBe('TRANSACTION_SIGN_FAILED')
  })
})
