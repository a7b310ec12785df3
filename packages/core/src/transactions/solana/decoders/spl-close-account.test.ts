import { createNoopSigner } from '@solana/kit'
import { getCloseAccountInstruction, getSyncNativeInstruction } from '@solana-program/token'
import { describe, expect, it } from 'vitest'
import { decodeSplCloseAccount } from './spl-close-account.ts'
import { TOKEN_2022_PROGRAM_ADDRESS } from './token-program.ts'
import { roundTripOne, testAddress } from './wire.test-helper.ts'

const wallet = testAddress(1)
const account = testAddress(3)
const destination = testAddress(2)

describe('decodeSplCloseAccount', () => {
  it('reads the account closed, where its lamports go and who authorised it', () => {
    const instruction = roundTripOne(
      getCloseAccountInstruction({ account, destination, owner: createNoopSigner(wallet) }),
      wallet,
    )
    expect(decodeSplCloseAccount(instruction)).toEqual({
      type: 'spl-close-account',
      account,
      destination,
      owner: wallet,
      program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    })
  })

  it('accepts the Token-2022 program', () => {
    const instruction = roundTripOne(
      getCloseAccountInstruction(
        { account, destination, owner: createNoopSigner(wallet) },
        { programAddress: TOKEN_2022_PROGRAM_ADDRESS },
      ),
      wallet,
    )
    expect(decodeSplCloseAccount(instruction)?.program).toBe(
      'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
    )
  })

  it('answers undefined for SyncNative', () => {
    const instruction = roundTripOne(getSyncNativeInstruction({ account }), wallet)
    expect(decodeSplCloseAccount(instruction)).toBeUndefined()
  })

  it('answers undefined for a CloseAccount missing its owner', () => {
    const close = getCloseAccountInstruction({ account, destination, owner: wallet })
    const instruction = roundTripOne({ ...close, accounts: close.accounts.slice(0, 2) }, wallet)
    expect(decodeSplCloseAccount(instruction)).toBeUndefined()
  })
})
