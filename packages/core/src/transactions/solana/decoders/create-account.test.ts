import { createNoopSigner } from '@solana/kit'
import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system'
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import { describe, expect, it } from 'vitest'
import { decodeCreateAccount } from './create-account.ts'
import { roundTripOne, testAddress } from './wire.test-helper.ts'

const payer = testAddress(1)
const newAccount = testAddress(3)

describe('decodeCreateAccount', () => {
  it('reads the funder, new account, rent lamports, space and owner program', () => {
    const instruction = roundTripOne(
      getCreateAccountInstruction({
        payer: createNoopSigner(payer),
        newAccount: createNoopSigner(newAccount),
        lamports: 2_039_280n,
        space: 165n,
        programAddress: TOKEN_PROGRAM_ADDRESS,
      }),
      payer,
    )
    expect(decodeCreateAccount(instruction)).toEqual({
      type: 'create-account',
      from: payer,
      newAccount,
      lamports: 2_039_280n,
      space: 165n,
      owner: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    })
  })

  it('answers undefined for a SOL transfer', () => {
    const instruction = roundTripOne(
      getTransferSolInstruction({
        source: createNoopSigner(payer),
        destination: newAccount,
        amount: 1n,
      }),
      payer,
    )
    expect(decodeCreateAccount(instruction)).toBeUndefined()
  })

  it('answers undefined for truncated data', () => {
    const create = getCreateAccountInstruction({
      payer: createNoopSigner(payer),
      newAccount: createNoopSigner(newAccount),
      lamports: 1n,
      space: 0n,
      programAddress: TOKEN_PROGRAM_ADDRESS,
    })
    const instruction = roundTripOne({ ...create, data: create.data.slice(0, 12) }, payer)
    expect(decodeCreateAccount(instruction)).toBeUndefined()
  })
})
