import { address, containsBytes, getU16Decoder, getU64Decoder } from '@solana/kit'
import type { DecodableInstruction, SolanaInstructionOf } from './types.ts'

export type JupiterSwapInstruction = SolanaInstructionOf<
  'jupiter-swap-shared-accounts-route' | 'jupiter-swap-exact-out-route'
>

/** Jupiter aggregator v6. */
export const JUPITER_V6_PROGRAM_ADDRESS = address('JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4')

interface Route {
  /** sha256("global:<name>")[0..8]; jupiter-swap.test.ts recomputes each. */
  discriminator: Uint8Array
  type: JupiterSwapInstruction['type']
  /** Account positions of source_mint and destination_mint in the v6 IDL. */
  sourceMint: number
  destinationMint: number
  /** Bytes before the route plan: the discriminator, plus `id: u8` for shared-accounts forms. */
  head: number
}

// Account positions from the Jupiter v6 IDL (jupiter.json, as published with
// jup-ag's instruction parser; mirrored in debridge-finance/solana-tx-parser-public
// tests/idl/jupiter_v6.ts). Anchor passes the program id for an absent optional
// account, so the positions are fixed.
const ROUTES: readonly Route[] = [
  {
    // shared_accounts_route(id, route_plan, in_amount, quoted_out_amount, slippage_bps, platform_fee_bps)
    discriminator: new Uint8Array([193, 32, 155, 51, 65, 214, 156, 129]),
    type: 'jupiter-swap-shared-accounts-route',
    sourceMint: 7,
    destinationMint: 8,
    head: 9,
  },
  {
    // exact_out_route(route_plan, out_amount, quoted_in_amount, slippage_bps, platform_fee_bps)
    discriminator: new Uint8Array([208, 51, 239, 151, 123, 43, 237, 92]),
    type: 'jupiter-swap-exact-out-route',
    sourceMint: 5,
    destinationMint: 6,
    head: 8,
  },
  {
    // shared_accounts_exact_out_route(id, route_plan, out_amount, quoted_in_amount, slippage_bps, platform_fee_bps)
    discriminator: new Uint8Array([176, 209, 105, 168, 154, 125, 69, 62]),
    type: 'jupiter-swap-exact-out-route',
    sourceMint: 7,
    destinationMint: 8,
    head: 9,
  },
]

// amount u64 + quoted amount u64 + slippage_bps u16 + platform_fee_bps u8.
const TAIL = 19
// The route plan's Borsh Vec length prefix (u32).
const VEC_LENGTH = 4

/**
 * Reads a Jupiter v6 `shared_accounts_route` (exact amount in) or
 * `exact_out_route` / `shared_accounts_exact_out_route` (exact amount out),
 * with the source and destination mints taken from the instruction's
 * accounts. Other Jupiter instructions (`route`, the token-ledger forms) and
 * other programs give `undefined`.
 *
 * The amounts are read from the end of the data: the route plan before them is
 * a Borsh `Vec<RoutePlanStep>` whose `Swap` enum has dozens of variants with
 * differing payloads (and Jupiter adds more), while the arguments after it are
 * fixed: amount u64, quoted amount u64, slippage_bps u16, platform_fee_bps u8,
 * 19 bytes. Reading them backwards needs no knowledge of the variants.
 *
 * @example
 * decodeJupiterSwap(instruction)
 * // { type: 'jupiter-swap-shared-accounts-route', inAmount: 1_000_000_000n,
 * //   quotedOutAmount: 148_732_101n, slippageBps: 50,
 * //   sourceMint: 'So11111111111111111111111111111111111111112',
 * //   destinationMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
 * //   program: 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4' }
 */
export function decodeJupiterSwap(
  instruction: DecodableInstruction,
): JupiterSwapInstruction | undefined {
  const { programAddress: program, data, accounts } = instruction
  if (program !== JUPITER_V6_PROGRAM_ADDRESS) return undefined
  const route = ROUTES.find(({ discriminator }) => containsBytes(data, discriminator, 0))
  if (!route || data.length < route.head + VEC_LENGTH + TAIL) return undefined
  const tail = data.length - TAIL
  const amount = getU64Decoder().decode(data, tail)
  const quoted = getU64Decoder().decode(data, tail + 8)
  const slippageBps = getU16Decoder().decode(data, tail + 16)
  const sourceMint = accounts[route.sourceMint]?.address
  const destinationMint = accounts[route.destinationMint]?.address
  const mints = { sourceMint, destinationMint, program }
  return route.type === 'jupiter-swap-shared-accounts-route'
    ? { type: route.type, inAmount: amount, quotedOutAmount: quoted, slippageBps, ...mints }
    : { type: route.type, outAmount: amount, quotedInAmount: quoted, slippageBps, ...mints }
}
