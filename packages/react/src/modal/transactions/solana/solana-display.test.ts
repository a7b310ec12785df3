import type { SolanaInstruction } from '@latchkey/core/solana'
import { describe, expect, it } from 'vitest'
import { RECIPIENT, SOL, solTransfer, WALLET } from './fixtures.test-helper.ts'
import {
  firstRecipient,
  instructionSummary,
  lamportsSent,
  solText,
  swapTexts,
  tokenTransferText,
} from './solana-display.ts'

const MINT = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const TOKEN = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
const createAccount: SolanaInstruction = {
  type: 'create-account',
  from: WALLET,
  newAccount: RECIPIENT,
  lamports: 2_039_280n,
  space: 165n,
  owner: TOKEN,
}
const usdcTransfer: SolanaInstruction = {
  type: 'spl-transfer',
  source: 'Src1111111111111111111111111111111111111111',
  destination: 'Dst1111111111111111111111111111111111111111',
  owner: WALLET,
  amount: 1_500_000n,
  mint: MINT,
  decimals: 6,
  program: TOKEN,
}

describe('solana-display', () => {
  it('SOL amounts have 9 decimals, shown to at most 6', () => {
    expect(solText(SOL / 2n)).toBe('0.5 SOL')
    expect(solText(5000n)).toBe('0.000005 SOL')
    expect(solText(1n)).toBe('<0.001 SOL')
  })

  it('adds up the lamports the wallet sends in transfers and account creations', () => {
    const fromOther = { ...solTransfer, from: RECIPIENT }
    expect(lamportsSent([solTransfer, createAccount, fromOther], WALLET)).toBe(502_039_280n)
  })

  it("names the first transfer's recipient, and a token transfer's amount", () => {
    expect(firstRecipient([createAccount, usdcTransfer, solTransfer])).toBe(
      usdcTransfer.destination,
    )
    expect(firstRecipient([createAccount])).toBeNull()
    expect(tokenTransferText([usdcTransfer], WALLET)).toBe('1.5 EPjFWd…Dt1v')
    expect(tokenTransferText([usdcTransfer], RECIPIENT)).toBeNull()
  })

  it('words Raydium and Jupiter swaps', () => {
    const program = 'program'
    expect(
      swapTexts([
        { type: 'raydium-swap-base-input', amountIn: 100n, minimumAmountOut: 95n, program },
        { type: 'raydium-swap-base-output', maxAmountIn: 105n, amountOut: 100n, program },
        {
          type: 'jupiter-swap-exact-out-route',
          outAmount: SOL,
          quotedInAmount: 150_000_000n,
          slippageBps: 100,
          sourceMint: MINT,
          destinationMint: 'So11111111111111111111111111111111111111112',
          program,
        },
        solTransfer,
      ]),
    ).toEqual([
      '100 → at least 95',
      'at most 105 → 100',
      '~150000000 EPjFWd…Dt1v → 1 SOL (1% slippage)',
    ])
  })

  it("summarises each instruction for 'Advanced'", () => {
    expect(instructionSummary(createAccount)).toEqual({
      title: 'Create account',
      fields: [
        ['Account', RECIPIENT],
        ['Funded with', '0.002039 SOL'],
        ['Space', '165 bytes'],
        ['Program', TOKEN],
      ],
    })
    expect(instructionSummary(usdcTransfer).fields.at(-1)).toEqual(['Amount', '1.5'])
    expect(instructionSummary({ type: 'unknown', program: 'P', discriminator: '' }).fields).toEqual(
      [
        ['Program', 'P'],
        ['Discriminator', 'none'],
      ],
    )
  })
})
