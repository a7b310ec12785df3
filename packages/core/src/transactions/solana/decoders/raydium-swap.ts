import { type Address, address, containsBytes, getU64Decoder } from '@solana/kit'
import type { DecodableInstruction, SolanaInstructionOf } from './types.ts'

export type RaydiumSwapInstruction = SolanaInstructionOf<
  'raydium-swap-base-input' | 'raydium-swap-base-output'
>

/** Raydium AMM v4 (the legacy constant-product AMM). */
export const RAYDIUM_AMM_V4_PROGRAM_ADDRESS = address(
  '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8',
)
/** Raydium CPMM (the Anchor constant-product AMM). */
export const RAYDIUM_CPMM_PROGRAM_ADDRESS = address('CPMMoo8L3F4NbTegBCKVNunggL7H1ZpdTHKxQB5qKP1C')

// AMM v4 (raydium-amm `instruction.rs`): a u8 tag, then two u64 LE. SwapBaseIn
// (9) and SwapBaseInV2 (16, the 8-account form without OpenBook) carry
// amount_in, minimum_amount_out; SwapBaseOut (11) and SwapBaseOutV2 (17)
// carry max_amount_in, amount_out.
const AMM_V4_BASE_INPUT_TAGS = new Set([9, 16])
const AMM_V4_BASE_OUTPUT_TAGS = new Set([11, 17])

// CPMM Anchor discriminators, sha256("global:<name>")[0..8], hardcoded so
// decoding stays synchronous; raydium-swap.test.ts recomputes them. Args as
// for AMM v4: swap_base_input(amount_in, minimum_amount_out) and
// swap_base_output(max_amount_in, amount_out), u64 LE each.
const CPMM_SWAP_BASE_INPUT = new Uint8Array([143, 190, 90, 218, 196, 30, 51, 222])
const CPMM_SWAP_BASE_OUTPUT = new Uint8Array([55, 217, 98, 86, 163, 74, 180, 173])

/**
 * Reads a Raydium swap: AMM v4 `SwapBaseIn`/`SwapBaseInV2` and CPMM
 * `swap_base_input` (exact amount in, at least a minimum out) as
 * `raydium-swap-base-input`; AMM v4 `SwapBaseOut`/`SwapBaseOutV2` and CPMM
 * `swap_base_output` (exact amount out, at most a maximum in) as
 * `raydium-swap-base-output`. Only the amounts are read; the pools' mints are
 * in account data, not in the instruction. Any other instruction, or one too
 * short to hold both amounts, gives `undefined`.
 *
 * @example
 * decodeRaydiumSwap(instruction)
 * // { type: 'raydium-swap-base-input', amountIn: 1_000_000_000n,
 * //   minimumAmountOut: 148_500_000n, program: '675kPX9MHTjS2zt1qfr1NYHuzeLXfQM9H24wFSUt1Mp8' }
 */
export function decodeRaydiumSwap(
  instruction: DecodableInstruction,
): RaydiumSwapInstruction | undefined {
  const { programAddress: program, data } = instruction
  if (program === RAYDIUM_AMM_V4_PROGRAM_ADDRESS) {
    const tag = data[0] ?? -1
    if (AMM_V4_BASE_INPUT_TAGS.has(tag)) return baseInput(program, data, 1)
    if (AMM_V4_BASE_OUTPUT_TAGS.has(tag)) return baseOutput(program, data, 1)
    return undefined
  }
  if (program === RAYDIUM_CPMM_PROGRAM_ADDRESS) {
    if (containsBytes(data, CPMM_SWAP_BASE_INPUT, 0)) return baseInput(program, data, 8)
    if (containsBytes(data, CPMM_SWAP_BASE_OUTPUT, 0)) return baseOutput(program, data, 8)
  }
  return undefined
}

type Data = DecodableInstruction['data']

function readAmounts(data: Data, offset: number): [bigint, bigint] | undefined {
  if (data.length < offset + 16) return undefined
  const u64 = getU64Decoder()
  return [u64.decode(data, offset), u64.decode(data, offset + 8)]
}

function baseInput(program: Address, data: Data, offset: number) {
  const amounts = readAmounts(data, offset)
  if (!amounts) return undefined
  const [amountIn, minimumAmountOut] = amounts
  return { type: 'raydium-swap-base-input', amountIn, minimumAmountOut, program } as const
}

function baseOutput(program: Address, data: Data, offset: number) {
  const amounts = readAmounts(data, offset)
  if (!amounts) return undefined
  const [maxAmountIn, amountOut] = amounts
  return { type: 'raydium-swap-base-output', maxAmountIn, amountOut, program } as const
}
