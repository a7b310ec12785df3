// @vitest-environment node
import {
  type SolanaLedger,
  startSolanaLedger,
  TOKEN_2022_PROGRAM,
} from '@latchkey/server/test/solana'
import { address, generateKeyPairSigner } from '@solana/kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import { decodeSolanaTransaction } from '../transactions/solana/decode.ts'
import { signWith, transferSol } from '../transactions/solana/ledger.test-helper.ts'
import { createSolanaClient, type SolanaClient } from '../transactions/solana/rpc.ts'
import { sendSolanaTransaction } from '../transactions/solana/send.ts'
import {
  buildSolanaFundingTransfer,
  buildSolanaInstructionsTransaction,
  solanaSignatureOf,
} from './solana-transfer.ts'

// The funding transactions against the LiteSVM ledger (the real System,
// Token, Token-2022 and Associated Token programs): what they hold, what
// they cost, and that they land once signed.
const SOL = 1_000_000_000n
let ledger: SolanaLedger
let rpc: SolanaClient

beforeAll(async () => {
  ledger = await startSolanaLedger()
  rpc = createSolanaClient(ledger.rpcUrl)
})
afterAll(() => ledger.stop())

const wallet = async (lamports = 0n) => {
  const signer = await generateKeyPairSigner()
  if (lamports) ledger.airdrop(signer.address, lamports)
  return signer
}

const code = (promise: Promise<unknown>) =>
  promise.then(
    () => 'resolved',
    (e: unknown) => (e instanceof LatchkeyError ? e.code : String(e)),
  )

describe('buildSolanaFundingTransfer', () => {
  it('SOL: one System transfer, the payer the fee payer; it costs the amount and the fee', async () => {
    const payer = await wallet(SOL)
    const to = await wallet()
    const built = await buildSolanaFundingTransfer({
      rpc,
      from: payer.address,
      to: to.address,
      amount: 250_000_000n,
    })
    const decoded = decodeSolanaTransaction(built.transaction)
    expect(decoded.feePayer).toBe(payer.address)
    expect(decoded.instructions).toEqual([
      { type: 'sol-transfer', from: payer.address, to: to.address, lamports: 250_000_000n },
    ])
    expect(built.fee).toBe(5_000n)
    expect(built.lamports).toBe(250_005_000n)
    const sent = await sendSolanaTransaction({
      rpc,
      transaction: built.transaction,
      sign: signWith(payer),
    })
    expect(solanaSignatureOf(sent.transaction)).toBe(sent.signature)
    expect(ledger.svm.getBalance(to.address)).toBe(250_000_000n)
  })

  it("a Token-2022 mint: the recipient's account made by its program, the rent counted", async () => {
    const payer = await wallet(SOL)
    const to = await wallet()
    const mint = ledger.createMint({ decimals: 2, programId: TOKEN_2022_PROGRAM })
    ledger.mintTo({ mint, owner: payer.address, amount: 10_000n })
    const built = await buildSolanaFundingTransfer({
      rpc,
      from: payer.address,
      to: to.address,
      amount: 1_234n,
      token: { mint, decimals: 2 },
    })
    const rent = await rpc.getMinimumBalanceForRentExemption(165n).send()
    expect(built.lamports).toBe(built.fee + rent)
    const types = decodeSolanaTransaction(built.transaction).instructions.map((i) => i.type)
    expect(types).toEqual(['ata-creation', 'spl-transfer'])
    await sendSolanaTransaction({ rpc, transaction: built.transaction, sign: signWith(payer) })
    const { value } = await rpc
      .getTokenAccountsByOwner(
        address(to.address),
        { mint: address(mint) },
        { encoding: 'jsonParsed' },
      )
      .send()
    expect(
      value.map((a) => [a.account.owner, a.account.data.parsed.info.tokenAmount.amount]),
    ).toEqual([[TOKEN_2022_PROGRAM, '1234']])
  })

  it('refuses what the payer cannot pay: SOL plus the fee, the token, the new account’s rent', async () => {
    const payer = await wallet(1_000_000n)
    const to = await wallet()
    expect(
      await code(
        buildSolanaFundingTransfer({
          rpc,
          from: payer.address,
          to: to.address,
          amount: 1_000_000n,
        }),
      ),
    ).toBe('FUNDING_WALLET_INSUFFICIENT_FUNDS')
    const mint = ledger.createMint({ decimals: 6 })
    ledger.mintTo({ mint, owner: payer.address, amount: 5n })
    const token = { mint, decimals: 6 }
    // The tokens are there, but not the rent of the recipient's new account.
    expect(
      await code(
        buildSolanaFundingTransfer({ rpc, from: payer.address, to: to.address, amount: 5n, token }),
      ),
    ).toBe('FUNDING_WALLET_INSUFFICIENT_FUNDS')
    expect(
      await code(
        buildSolanaFundingTransfer({ rpc, from: payer.address, to: to.address, amount: 6n, token }),
      ),
    ).toBe('FUNDING_WALLET_INSUFFICIENT_FUNDS')
    expect(
      await code(
        buildSolanaFundingTransfer({ rpc, from: payer.address, to: to.address, amount: 0n }),
      ),
    ).toBe('FUNDING_INVALID_DATA')
  })

  it('an unknown mint is TOKEN_DETAILS_FAILED; an unreachable node TRANSACTION_PREPARE_ERROR', async () => {
    const payer = await wallet(SOL)
    const to = await wallet()
    const nowhere = (await wallet()).address
    expect(
      await code(
        buildSolanaFundingTransfer({
          rpc,
          from: payer.address,
          to: to.address,
          amount: 1n,
          token: { mint: nowhere, decimals: 6 },
        }),
      ),
    ).toBe('TOKEN_DETAILS_FAILED')
    expect(
      await code(
        buildSolanaFundingTransfer({
          rpc: createSolanaClient('http://127.0.0.1:9'),
          from: payer.address,
          to: to.address,
          amount: 1n,
        }),
      ),
    ).toBe('TRANSACTION_PREPARE_ERROR')
  })
})

describe('buildSolanaInstructionsTransaction (bridge deposits)', () => {
  it('compresses the accounts with the quote’s lookup table and counts the lamports sent', async () => {
    const payer = await wallet(SOL)
    const depositAddress = (await wallet()).address
    const table = ledger.createLookupTable([depositAddress])
    const built = await buildSolanaInstructionsTransaction({
      rpc,
      feePayer: payer.address,
      instructions: [transferSol(payer.address, depositAddress, 3_000_000n)],
      addressLookupTableAddresses: [table],
    })
    expect(built.lamports).toBe(built.fee + 3_000_000n)
    const decoded = decodeSolanaTransaction(built.transaction)
    expect(decoded.version).toBe(0)
    await sendSolanaTransaction({ rpc, transaction: built.transaction, sign: signWith(payer) })
    expect(ledger.svm.getBalance(depositAddress)).toBe(3_000_000n)
  })

  it('a payer short of the deposit is BRIDGE_INSUFFICIENT_BALANCE', async () => {
    const payer = await wallet(1_000_000n)
    const depositAddress = (await wallet()).address
    expect(
      await code(
        buildSolanaInstructionsTransaction({
          rpc,
          feePayer: payer.address,
          instructions: [transferSol(payer.address, depositAddress, 1_000_000n)],
        }),
      ),
    ).toBe('BRIDGE_INSUFFICIENT_BALANCE')
  })
})
