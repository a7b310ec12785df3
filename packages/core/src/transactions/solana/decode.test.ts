import {
  AccountRole,
  type Address,
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionEncoder,
  getU32Encoder,
  getU64Encoder,
  getUtf8Encoder,
  type Instruction,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  getCloseAccountInstruction,
  getCreateAssociatedTokenIdempotentInstruction,
  getCreateAssociatedTokenInstruction,
  getSyncNativeInstruction,
  getTransferCheckedInstruction,
} from '@solana-program/token'
import { describe, expect, it } from 'vitest'
import { LatchkeyError } from '../../errors.ts'
import { decodeSolanaTransaction } from './decode.ts'
import { RAYDIUM_AMM_V4_PROGRAM_ADDRESS } from './decoders/raydium-swap.ts'
import { encodeTransaction, testAddress } from './decoders/wire.test-helper.ts'
import type { SolanaInstruction } from './types.ts'

const wallet = testAddress(1)
const bob = testAddress(2)
const wsolAccount = testAddress(3)
const usdcAccount = testAddress(4)
const bobUsdcAccount = testAddress(5)
const table = testAddress(99)
const WSOL = address('So11111111111111111111111111111111111111112')
const USDC = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')
const COMPUTE_BUDGET = address('ComputeBudget111111111111111111111111111111')
const MEMO = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr')
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const signer = createNoopSigner(wallet)
const LIFETIME = {
  blockhash: 'EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N' as Blockhash,
  lastValidBlockHeight: 300n,
}

function raw(
  programAddress: Address,
  data: Iterable<number>,
  accounts: Address[] = [],
): Instruction {
  const metas = accounts.map((a) => ({ address: a, role: AccountRole.WRITABLE }))
  return { programAddress, accounts: metas, data: new Uint8Array([...data]) }
}

// Wrap 1 SOL, swap it on Raydium for USDC, unwrap: what a swap app sends.
const swapInstructions: Instruction[] = [
  raw(COMPUTE_BUDGET, [2, ...getU32Encoder().encode(200_000)]),
  raw(COMPUTE_BUDGET, [3, ...getU64Encoder().encode(50_000n)]),
  getCreateAssociatedTokenIdempotentInstruction({
    payer: signer,
    ata: wsolAccount,
    owner: wallet,
    mint: WSOL,
  }),
  getTransferSolInstruction({ source: signer, destination: wsolAccount, amount: 1_000_000_000n }),
  getSyncNativeInstruction({ account: wsolAccount }),
  {
    ...raw(
      RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
      [16, ...getU64Encoder().encode(1_000_000_000n), ...getU64Encoder().encode(148_500_000n)],
      [
        testAddress(21),
        testAddress(22),
        testAddress(23),
        testAddress(24),
        wsolAccount,
        usdcAccount,
      ],
    ),
  },
  getCloseAccountInstruction({ account: wsolAccount, destination: wallet, owner: signer }),
  raw(MEMO, getUtf8Encoder().encode('latchkey swap')),
]

const swapDecoded: SolanaInstruction[] = [
  { type: 'unknown', program: COMPUTE_BUDGET, discriminator: '02' },
  { type: 'unknown', program: COMPUTE_BUDGET, discriminator: '03' },
  {
    type: 'ata-creation',
    payer: wallet,
    ata: wsolAccount,
    owner: wallet,
    mint: WSOL,
    program: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
  },
  { type: 'sol-transfer', from: wallet, to: wsolAccount, lamports: 1_000_000_000n },
  { type: 'spl-sync-native', account: wsolAccount, program: TOKEN },
  {
    type: 'raydium-swap-base-input',
    amountIn: 1_000_000_000n,
    minimumAmountOut: 148_500_000n,
    program: '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8',
  },
  {
    type: 'spl-close-account',
    account: wsolAccount,
    destination: wallet,
    owner: wallet,
    program: TOKEN,
  },
  // "latchkey" in UTF-8: a non-Anchor program's first 8 bytes all the same.
  { type: 'unknown', program: MEMO, discriminator: '6c617463686b6579' },
]

describe('decodeSolanaTransaction', () => {
  it('decodes a legacy transaction, instruction by instruction', () => {
    const wire = encodeTransaction(swapInstructions, { feePayer: wallet })
    expect(decodeSolanaTransaction(wire)).toEqual({
      version: 'legacy',
      feePayer: wallet,
      instructions: swapDecoded,
    })
  })

  it('decodes the same instructions in a v0 transaction', () => {
    const wire = encodeTransaction(swapInstructions, { feePayer: wallet, version: 0 })
    expect(wire[1 + 64]).toBe(0x80) // after one empty signature: the v0 prefix
    expect(decodeSolanaTransaction(wire)).toEqual({
      version: 0,
      feePayer: wallet,
      instructions: swapDecoded,
    })
  })

  describe('v0 with an address lookup table', () => {
    const instructions = [
      getTransferSolInstruction({ source: signer, destination: bob, amount: 5_000n }),
      getTransferCheckedInstruction({
        source: usdcAccount,
        mint: USDC,
        destination: bobUsdcAccount,
        authority: signer,
        amount: 12_000_000n,
        decimals: 6,
      }),
    ]
    const tables = { [table]: [USDC, bobUsdcAccount, bob] }
    const wire = encodeTransaction(instructions, {
      feePayer: wallet,
      version: 0,
      lookupTables: tables,
    })
    const transfer = { type: 'spl-transfer', source: usdcAccount, owner: wallet }
    const checked = { amount: 12_000_000n, decimals: 6, program: TOKEN }

    it('marks looked-up accounts as lookup:<table>#<index> without the table', () => {
      expect(decodeSolanaTransaction(wire).instructions).toEqual([
        { type: 'sol-transfer', from: wallet, to: `lookup:${table}#2`, lamports: 5_000n },
        {
          ...transfer,
          destination: `lookup:${table}#1`,
          mint: `lookup:${table}#0`,
          ...checked,
        },
      ])
    })

    it('resolves them from addressesByLookupTableAddress', () => {
      const decoded = decodeSolanaTransaction(wire, { addressesByLookupTableAddress: tables })
      expect(decoded.instructions).toEqual([
        { type: 'sol-transfer', from: wallet, to: bob, lamports: 5_000n },
        { ...transfer, destination: bobUsdcAccount, mint: USDC, ...checked },
      ])
    })
  })

  it('names unknown instructions by one byte or an 8-byte Anchor discriminator', () => {
    const anchorProgram = testAddress(50)
    const wire = encodeTransaction(
      [
        // sha256('global:initialize')[0..8], then an argument.
        raw(anchorProgram, [0xaf, 0xaf, 0x6d, 0x1f, 0x0d, 0x98, 0x9b, 0xed, 7]),
        raw(anchorProgram, [9, 8, 7]),
        raw(anchorProgram, []),
        // A System Assign: a u32 tag, so one byte however long the data.
        raw('11111111111111111111111111111111' as Address, [1, 0, 0, 0, ...new Uint8Array(32)]),
      ],
      { feePayer: wallet },
    )
    expect(decodeSolanaTransaction(wire).instructions).toEqual([
      { type: 'unknown', program: anchorProgram, discriminator: 'afaf6d1f0d989bed' },
      { type: 'unknown', program: anchorProgram, discriminator: '09' },
      { type: 'unknown', program: anchorProgram, discriminator: '' },
      { type: 'unknown', program: '11111111111111111111111111111111', discriminator: '01' },
    ])
  })

  it('shows a malformed instruction of a known type as unknown', () => {
    const create = getCreateAssociatedTokenInstruction({
      payer: signer,
      ata: wsolAccount,
      owner: wallet,
      mint: WSOL,
    })
    const wire = encodeTransaction([{ ...create, accounts: create.accounts.slice(0, 3) }], {
      feePayer: wallet,
    })
    expect(decodeSolanaTransaction(wire).instructions).toEqual([
      {
        type: 'unknown',
        program: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
        discriminator: '00',
      },
    ])
  })

  it('throws INVALID_TRANSACTION_REQUEST for bytes that are not a transaction', () => {
    const decode = () => decodeSolanaTransaction(new Uint8Array([1, 2, 3]))
    expect(decode).toThrow(LatchkeyError)
    expect(decode).toThrow(expect.objectContaining({ code: 'INVALID_TRANSACTION_REQUEST' }))
  })

  it('throws INVALID_TRANSACTION_REQUEST for a v1 transaction', () => {
    const message = pipe(
      createTransactionMessage({ version: 1 }),
      (m) => setTransactionMessageFeePayer(wallet, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(LIFETIME, m),
      (m) => appendTransactionMessageInstructions([raw(MEMO, [1])], m),
    )
    const wire = new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)))
    expect(() => decodeSolanaTransaction(wire)).toThrow(
      expect.objectContaining({
        code: 'INVALID_TRANSACTION_REQUEST',
        message: 'Unsupported Solana transaction version 1',
      }),
    )
  })
})
