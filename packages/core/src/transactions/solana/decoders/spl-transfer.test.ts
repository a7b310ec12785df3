import { address, createNoopSigner } from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  getApproveInstruction,
  getTransferCheckedInstruction,
  getTransferInstruction,
} from '@solana-program/token'
import { describe, expect, it } from 'vitest'
import { decodeSplTransfer } from './spl-transfer.ts'
import { TOKEN_2022_PROGRAM_ADDRESS } from './token-program.ts'
import { roundTripOne, testAddress } from './wire.test-helper.ts'

const wallet = testAddress(1)
const source = testAddress(4)
const destination = testAddress(5)
const USDC = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')

describe('decodeSplTransfer', () => {
  it('reads a Token program Transfer', () => {
    const instruction = roundTripOne(
      getTransferInstruction({
        source,
        destination,
        authority: createNoopSigner(wallet),
        amount: 2_500_000n,
      }),
      wallet,
    )
    expect(decodeSplTransfer(instruction)).toEqual({
      type: 'spl-transfer',
      source,
      destination,
      owner: wallet,
      amount: 2_500_000n,
      program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    })
  })

  it('reads a TransferChecked with its mint and decimals', () => {
    const instruction = roundTripOne(
      getTransferCheckedInstruction({
        source,
        mint: USDC,
        destination,
        authority: createNoopSigner(wallet),
        amount: 12_340_000n,
        decimals: 6,
      }),
      wallet,
    )
    expect(decodeSplTransfer(instruction)).toEqual({
      type: 'spl-transfer',
      source,
      destination,
      owner: wallet,
      amount: 12_340_000n,
      mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      decimals: 6,
      program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    })
  })

  it('accepts the Token-2022 program', () => {
    const instruction = roundTripOne(
      getTransferCheckedInstruction(
        {
          source,
          mint: USDC,
          destination,
          authority: createNoopSigner(wallet),
          amount: 1n,
          decimals: 9,
        },
        { programAddress: TOKEN_2022_PROGRAM_ADDRESS },
      ),
      wallet,
    )
    expect(decodeSplTransfer(instruction)).toMatchObject({
      amount: 1n,
      decimals: 9,
      program: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
    })
  })

  it('answers undefined for another Token instruction (Approve)', () => {
    const instruction = roundTripOne(
      getApproveInstruction({
        source,
        delegate: destination,
        owner: createNoopSigner(wallet),
        amount: 1n,
      }),
      wallet,
    )
    expect(decodeSplTransfer(instruction)).toBeUndefined()
  })

  it('answers undefined for a non-token program', () => {
    const instruction = roundTripOne(
      getTransferSolInstruction({ source: createNoopSigner(wallet), destination, amount: 1n }),
      wallet,
    )
    expect(decodeSplTransfer(instruction)).toBeUndefined()
  })

  it('answers undefined for a TransferChecked without its decimals byte', () => {
    const checked = getTransferCheckedInstruction({
      source,
      mint: USDC,
      destination,
      authority: createNoopSigner(wallet),
      amount: 1n,
      decimals: 6,
    })
    const instruction = roundTripOne({ ...checked, data: checked.data.slice(0, 9) }, wallet)
    expect(decodeSplTransfer(instruction)).toBeUndefined()
  })
})
