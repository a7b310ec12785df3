import { address, createNoopSigner } from '@solana/kit'
import {
  ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getCreateAssociatedTokenInstruction,
  getCreateAssociatedTokenInstructionAsync,
  getRecoverNestedAssociatedTokenInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { describe, expect, it } from 'vitest'
import { decodeAtaCreation } from './ata-creation.ts'
import { TOKEN_2022_PROGRAM_ADDRESS } from './token-program.ts'
import { roundTripOne, testAddress } from './wire.test-helper.ts'

const payer = testAddress(1)
const owner = testAddress(2)
const USDC = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')

describe('decodeAtaCreation', () => {
  it('reads Create with the derived associated token account', async () => {
    const [ata] = await findAssociatedTokenPda({
      owner,
      mint: USDC,
      tokenProgram: TOKEN_PROGRAM_ADDRESS,
    })
    const instruction = roundTripOne(
      await getCreateAssociatedTokenInstructionAsync({
        payer: createNoopSigner(payer),
        owner,
        mint: USDC,
      }),
      payer,
    )
    expect(decodeAtaCreation(instruction)).toEqual({
      type: 'ata-creation',
      payer,
      ata,
      owner,
      mint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      program: 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL',
    })
  })

  it('reads CreateIdempotent for a Token-2022 mint', () => {
    const ata = testAddress(6)
    const instruction = roundTripOne(
      getCreateAssociatedTokenIdempotentInstruction({
        payer: createNoopSigner(payer),
        ata,
        owner,
        mint: USDC,
        tokenProgram: TOKEN_2022_PROGRAM_ADDRESS,
      }),
      payer,
    )
    expect(decodeAtaCreation(instruction)).toEqual({
      type: 'ata-creation',
      payer,
      ata,
      owner,
      mint: USDC,
      program: ASSOCIATED_TOKEN_PROGRAM_ADDRESS,
    })
  })

  it('reads the legacy Create with empty data', () => {
    const create = getCreateAssociatedTokenInstruction({
      payer: createNoopSigner(payer),
      ata: testAddress(6),
      owner,
      mint: USDC,
    })
    const instruction = roundTripOne({ ...create, data: new Uint8Array() }, payer)
    expect(instruction.data).toHaveLength(0)
    expect(decodeAtaCreation(instruction)).toMatchObject({ ata: testAddress(6), owner, mint: USDC })
  })

  it('answers undefined for RecoverNested', () => {
    const instruction = roundTripOne(
      getRecoverNestedAssociatedTokenInstruction({
        nestedAssociatedAccountAddress: testAddress(7),
        nestedTokenMintAddress: USDC,
        destinationAssociatedAccountAddress: testAddress(8),
        ownerAssociatedAccountAddress: testAddress(9),
        ownerTokenMintAddress: USDC,
        walletAddress: createNoopSigner(payer),
      }),
      payer,
    )
    expect(decodeAtaCreation(instruction)).toBeUndefined()
  })

  it('answers undefined for a Create missing its accounts', () => {
    const create = getCreateAssociatedTokenInstruction({
      payer: createNoopSigner(payer),
      ata: testAddress(6),
      owner,
      mint: USDC,
    })
    const instruction = roundTripOne({ ...create, accounts: create.accounts.slice(0, 3) }, payer)
    expect(decodeAtaCreation(instruction)).toBeUndefined()
  })
})
