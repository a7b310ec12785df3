import { getCloseAccountInstruction, getSyncNativeInstruction } from '@solana-program/token'
import { describe, expect, it } from 'vitest'
import { decodeSplSyncNative } from './spl-sync-native.ts'
import { TOKEN_2022_PROGRAM_ADDRESS } from './token-program.ts'
import { roundTripOne, testAddress } from './wire.test-helper.ts'

const wallet = testAddress(1)
const account = testAddress(3)

describe('decodeSplSyncNative', () => {
  it('reads the wrapped-SOL account synced', () => {
    const instruction = roundTripOne(getSyncNativeInstruction({ account }), wallet)
    expect(instruction.data).toEqual(new Uint8Array([17]))
    expect(decodeSplSyncNative(instruction)).toEqual({
      type: 'spl-sync-native',
      account,
      program: 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA',
    })
  })

  it('accepts the Token-2022 program', () => {
    const instruction = roundTripOne(
      getSyncNativeInstruction({ account }, { programAddress: TOKEN_2022_PROGRAM_ADDRESS }),
      wallet,
    )
    expect(decodeSplSyncNative(instruction)).toEqual({
      type: 'spl-sync-native',
      account,
      program: 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb',
    })
  })

  it('answers undefined for CloseAccount', () => {
    const instruction = roundTripOne(
      getCloseAccountInstruction({ account, destination: wallet, owner: wallet }),
      wallet,
    )
    expect(decodeSplSyncNative(instruction)).toBeUndefined()
  })

  it('answers undefined for a SyncNative without its account', () => {
    const sync = getSyncNativeInstruction({ account })
    const instruction = roundTripOne({ ...sync, accounts: [] }, wallet)
    expect(decodeSplSyncNative(instruction)).toBeUndefined()
  })
})
