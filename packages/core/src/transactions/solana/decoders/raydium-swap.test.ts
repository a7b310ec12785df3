import { createHash } from 'node:crypto'
import { AccountRole, type Address, getU64Encoder, type Instruction } from '@solana/kit'
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import { describe, expect, it } from 'vitest'
import {
  decodeRaydiumSwap,
  RAYDIUM_AMM_V4_PROGRAM_ADDRESS,
  RAYDIUM_CPMM_PROGRAM_ADDRESS,
} from './raydium-swap.ts'
import { roundTripOne, testAddress } from './wire.test-helper.ts'

const wallet = testAddress(1)

function anchorDiscriminator(name: string): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`global:${name}`).digest().subarray(0, 8))
}

function u64(value: bigint): Uint8Array {
  return new Uint8Array(getU64Encoder().encode(value))
}

/** A swap instruction for `program` with `accounts` pool/vault accounts, the wallet signing last. */
function swap(program: Address, head: Uint8Array, a: bigint, b: bigint, accounts = 8): Instruction {
  const pool = Array.from({ length: accounts - 1 }, (_, i) => ({
    address: i === 0 ? TOKEN_PROGRAM_ADDRESS : testAddress(20 + i),
    role: i === 0 ? AccountRole.READONLY : AccountRole.WRITABLE,
  }))
  return {
    programAddress: program,
    accounts: [...pool, { address: wallet, role: AccountRole.READONLY_SIGNER }],
    data: new Uint8Array([...head, ...u64(a), ...u64(b)]),
  }
}

describe('decodeRaydiumSwap', () => {
  it('reads AMM v4 SwapBaseIn (tag 9, 18 accounts with OpenBook)', () => {
    const instruction = roundTripOne(
      swap(RAYDIUM_AMM_V4_PROGRAM_ADDRESS, new Uint8Array([9]), 1_000_000_000n, 148_500_000n, 18),
      wallet,
    )
    expect(instruction.data).toHaveLength(17)
    expect(decodeRaydiumSwap(instruction)).toEqual({
      type: 'raydium-swap-base-input',
      amountIn: 1_000_000_000n,
      minimumAmountOut: 148_500_000n,
      program: '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8',
    })
  })

  it('reads AMM v4 SwapBaseInV2 (tag 16)', () => {
    const instruction = roundTripOne(
      swap(RAYDIUM_AMM_V4_PROGRAM_ADDRESS, new Uint8Array([16]), 250n, 240n),
      wallet,
    )
    expect(decodeRaydiumSwap(instruction)).toMatchObject({
      type: 'raydium-swap-base-input',
      amountIn: 250n,
      minimumAmountOut: 240n,
    })
  })

  it('reads AMM v4 SwapBaseOut (tag 11) and SwapBaseOutV2 (tag 17)', () => {
    for (const tag of [11, 17]) {
      const instruction = roundTripOne(
        swap(RAYDIUM_AMM_V4_PROGRAM_ADDRESS, new Uint8Array([tag]), 5_100_000n, 5_000_000n),
        wallet,
      )
      expect(decodeRaydiumSwap(instruction)).toEqual({
        type: 'raydium-swap-base-output',
        maxAmountIn: 5_100_000n,
        amountOut: 5_000_000n,
        program: '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8',
      })
    }
  })

  it('reads CPMM swap_base_input by its Anchor discriminator', () => {
    const instruction = roundTripOne(
      swap(RAYDIUM_CPMM_PROGRAM_ADDRESS, anchorDiscriminator('swap_base_input'), 42n, 40n, 13),
      wallet,
    )
    expect(decodeRaydiumSwap(instruction)).toEqual({
      type: 'raydium-swap-base-input',
      amountIn: 42n,
      minimumAmountOut: 40n,
      program: 'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C',
    })
  })

  it('reads CPMM swap_base_output by its Anchor discriminator', () => {
    const instruction = roundTripOne(
      swap(RAYDIUM_CPMM_PROGRAM_ADDRESS, anchorDiscriminator('swap_base_output'), 990n, 900n, 13),
      wallet,
    )
    expect(decodeRaydiumSwap(instruction)).toEqual({
      type: 'raydium-swap-base-output',
      maxAmountIn: 990n,
      amountOut: 900n,
      program: 'CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C',
    })
  })

  it('answers undefined for other AMM v4 instructions (Deposit, tag 3)', () => {
    const instruction = roundTripOne(
      swap(RAYDIUM_AMM_V4_PROGRAM_ADDRESS, new Uint8Array([3]), 1n, 1n),
      wallet,
    )
    expect(decodeRaydiumSwap(instruction)).toBeUndefined()
  })

  it('answers undefined for other CPMM instructions and other programs', () => {
    const deposit = swap(RAYDIUM_CPMM_PROGRAM_ADDRESS, anchorDiscriminator('deposit'), 1n, 1n)
    expect(decodeRaydiumSwap(roundTripOne(deposit, wallet))).toBeUndefined()
    const elsewhere = swap(testAddress(9), new Uint8Array([9]), 1n, 1n)
    expect(decodeRaydiumSwap(roundTripOne(elsewhere, wallet))).toBeUndefined()
  })

  it('answers undefined when the amounts are cut short', () => {
    const full = swap(RAYDIUM_AMM_V4_PROGRAM_ADDRESS, new Uint8Array([9]), 1n, 1n)
    const instruction = roundTripOne({ ...full, data: full.data?.slice(0, 16) }, wallet)
    expect(decodeRaydiumSwap(instruction)).toBeUndefined()
  })
})
