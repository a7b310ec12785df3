import { address } from '@solana/kit'
import {
  getInitializeAccount2Instruction,
  getInitializeAccount3Instruction,
  getInitializeAccountInstruction,
  getInitializeMintInstruction,
} from '@solana-program/token'
import { describe, expect, it } from 'vitest'
import { decodeSplInitAccount } from './spl-init-account.ts'
import { TOKEN_2022_PROGRAM_ADDRESS } from './token-program.ts'
import { roundTripOne, testAddress } from './wire.test-helper.ts'

const wallet = testAddress(1)
const account = testAddress(3)
const WSOL = address('So11111111111111111111111111111111111111112')
const expected = {
  type: 'spl-init-account',
  account,
  mint: 'So11111111111111111111111111111111111111112',
  owner: wallet,
  program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
}

describe('decodeSplInitAccount', () => {
  it('reads InitializeAccount, the owner given as an account', () => {
    const instruction = roundTripOne(
      getInitializeAccountInstruction({ account, mint: WSOL, owner: wallet }),
      wallet,
    )
    expect(instruction.data).toEqual(new Uint8Array([1]))
    expect(decodeSplInitAccount(instruction)).toEqual(expected)
  })

  it('reads InitializeAccount2, the owner in the data', () => {
    const instruction = roundTripOne(
      getInitializeAccount2Instruction({ account, mint: WSOL, owner: wallet }),
      wallet,
    )
    expect(instruction.data[0]).toBe(16)
    expect(decodeSplInitAccount(instruction)).toEqual(expected)
  })

  it('reads InitializeAccount3 under Token-2022', () => {
    const instruction = roundTripOne(
      getInitializeAccount3Instruction(
        { account, mint: WSOL, owner: wallet },
        { programAddress: TOKEN_2022_PROGRAM_ADDRESS },
      ),
      wallet,
    )
    expect(instruction.data[0]).toBe(18)
    expect(decodeSplInitAccount(instruction)).toEqual({
      ...expected,
      program: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
    })
  })

  it('answers undefined for InitializeMint', () => {
    const instruction = roundTripOne(
      getInitializeMintInstruction({ mint: account, decimals: 6, mintAuthority: wallet }),
      wallet,
    )
    expect(decodeSplInitAccount(instruction)).toBeUndefined()
  })

  it('answers undefined for InitializeAccount3 without its owner', () => {
    const init = getInitializeAccount3Instruction({ account, mint: WSOL, owner: wallet })
    const instruction = roundTripOne({ ...init, data: init.data.slice(0, 1) }, wallet)
    expect(decodeSplInitAccount(instruction)).toBeUndefined()
  })
})
