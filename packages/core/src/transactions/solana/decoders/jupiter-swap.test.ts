import { createHash } from 'node:crypto'
import {
  AccountRole,
  type Address,
  address,
  getU16Encoder,
  getU32Encoder,
  getU64Encoder,
  type Instruction,
} from '@solana/kit'
import { TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import { describe, expect, it } from 'vitest'
import { decodeJupiterSwap, JUPITER_V6_PROGRAM_ADDRESS } from './jupiter-swap.ts'
import { roundTripOne, testAddress } from './wire.test-helper.ts'

const wallet = testAddress(1)
const WSOL = address('So11111111111111111111111111111111111111112')
const USDC = address('EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v')
const JUP = JUPITER_V6_PROGRAM_ADDRESS

function anchorDiscriminator(name: string): number[] {
  return [...createHash('sha256').update(`global:${name}`).digest().subarray(0, 8)]
}

// Borsh RoutePlanStep { swap: Swap, percent: u8, input_index: u8, output_index: u8 },
// Swap variant indexes from the v6 IDL: Raydium = 7 (no fields), Whirlpool = 17
// { a_to_b: bool }, WhirlpoolSwapV2 = 47 { a_to_b: bool, remaining_accounts_info:
// Option<{ slices: Vec<{ accounts_type: u8, length: u8 }> }> }.
const WHIRLPOOL_A_TO_B = [17, 1, 100, 0, 1]
const RAYDIUM = [7, 100, 1, 2]
const WHIRLPOOL_V2_WITH_HOOKS = [47, 0, 1, ...getU32Encoder().encode(2), 0, 3, 1, 3, 100, 0, 1]

function routePlan(steps: number[][]): number[] {
  return [...getU32Encoder().encode(steps.length), ...steps.flat()]
}

/** amount u64, quoted amount u64, slippage_bps u16, platform_fee_bps u8. */
function tail(amount: bigint, quoted: bigint, slippageBps: number, feeBps: number): number[] {
  return [
    ...getU64Encoder().encode(amount),
    ...getU64Encoder().encode(quoted),
    ...getU16Encoder().encode(slippageBps),
    feeBps,
  ]
}

/** Account lists per the v6 IDL, the optional ones passed as the program id as Anchor expects. */
function sharedAccounts(sourceMint: Address, destinationMint: Address): Instruction['accounts'] {
  const read = (a: Address) => ({ address: a, role: AccountRole.READONLY })
  const write = (a: Address) => ({ address: a, role: AccountRole.WRITABLE })
  return [
    read(TOKEN_PROGRAM_ADDRESS),
    read(testAddress(30)), // program_authority
    { address: wallet, role: AccountRole.READONLY_SIGNER }, // user_transfer_authority
    write(testAddress(31)), // source_token_account
    write(testAddress(32)), // program_source_token_account
    write(testAddress(33)), // program_destination_token_account
    write(testAddress(34)), // destination_token_account
    read(sourceMint),
    read(destinationMint),
    read(JUP), // platform_fee_account: none
    read(JUP), // token_2022_program: none
    read(testAddress(35)), // event_authority
    read(JUP), // program
  ]
}

function exactOutAccounts(sourceMint: Address, destinationMint: Address): Instruction['accounts'] {
  const read = (a: Address) => ({ address: a, role: AccountRole.READONLY })
  const write = (a: Address) => ({ address: a, role: AccountRole.WRITABLE })
  return [
    read(TOKEN_PROGRAM_ADDRESS),
    { address: wallet, role: AccountRole.READONLY_SIGNER }, // user_transfer_authority
    write(testAddress(31)), // user_source_token_account
    write(testAddress(32)), // user_destination_token_account
    read(JUP), // destination_token_account: none
    read(sourceMint),
    read(destinationMint),
    read(JUP), // platform_fee_account: none
    read(JUP), // token_2022_program: none
    read(testAddress(35)), // event_authority
    read(JUP), // program
  ]
}

function jupiter(data: number[], accounts: Instruction['accounts']): Instruction {
  return { programAddress: JUP, accounts, data: new Uint8Array(data) }
}

describe('decodeJupiterSwap', () => {
  it('reads shared_accounts_route: amounts from the end, mints from accounts 7 and 8', () => {
    const data = [
      ...anchorDiscriminator('shared_accounts_route'),
      3, // id
      ...routePlan([WHIRLPOOL_A_TO_B, RAYDIUM]),
      ...tail(1_000_000_000n, 148_732_101n, 50, 0),
    ]
    const instruction = roundTripOne(jupiter(data, sharedAccounts(WSOL, USDC)), wallet)
    expect(decodeJupiterSwap(instruction)).toEqual({
      type: 'jupiter-swap-shared-accounts-route',
      inAmount: 1_000_000_000n,
      quotedOutAmount: 148_732_101n,
      slippageBps: 50,
      sourceMint: 'So11111111111111111111111111111111111111112',
      destinationMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      program: 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4',
    })
  })

  it('reads past route steps with variable-length payloads', () => {
    const data = [
      ...anchorDiscriminator('shared_accounts_route'),
      0,
      ...routePlan([WHIRLPOOL_V2_WITH_HOOKS]),
      ...tail(7n, 6n, 300, 20),
    ]
    const instruction = roundTripOne(jupiter(data, sharedAccounts(USDC, WSOL)), wallet)
    expect(decodeJupiterSwap(instruction)).toMatchObject({
      inAmount: 7n,
      quotedOutAmount: 6n,
      slippageBps: 300,
      sourceMint: USDC,
      destinationMint: WSOL,
    })
  })

  it('reads exact_out_route, mints from accounts 5 and 6', () => {
    const data = [
      ...anchorDiscriminator('exact_out_route'),
      ...routePlan([RAYDIUM]),
      ...tail(25_000_000n, 168_400_000n, 100, 0),
    ]
    const instruction = roundTripOne(jupiter(data, exactOutAccounts(WSOL, USDC)), wallet)
    expect(decodeJupiterSwap(instruction)).toEqual({
      type: 'jupiter-swap-exact-out-route',
      outAmount: 25_000_000n,
      quotedInAmount: 168_400_000n,
      slippageBps: 100,
      sourceMint: 'So11111111111111111111111111111111111111112',
      destinationMint: 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v',
      program: 'JUP6LkbZbjS1jKKwapdHNy74zcZ3tLUZoi5QNyVTaV4',
    })
  })

  it('reads shared_accounts_exact_out_route as an exact-out route, mints from 7 and 8', () => {
    const data = [
      ...anchorDiscriminator('shared_accounts_exact_out_route'),
      1,
      ...routePlan([WHIRLPOOL_A_TO_B]),
      ...tail(1_000n, 1_010n, 10, 0),
    ]
    const instruction = roundTripOne(jupiter(data, sharedAccounts(USDC, WSOL)), wallet)
    expect(decodeJupiterSwap(instruction)).toEqual({
      type: 'jupiter-swap-exact-out-route',
      outAmount: 1_000n,
      quotedInAmount: 1_010n,
      slippageBps: 10,
      sourceMint: USDC,
      destinationMint: WSOL,
      program: JUP,
    })
  })

  it('leaves the mints undefined when the accounts are missing', () => {
    const data = [
      ...anchorDiscriminator('exact_out_route'),
      ...routePlan([RAYDIUM]),
      ...tail(5n, 6n, 1, 0),
    ]
    const accounts = exactOutAccounts(WSOL, USDC)?.slice(0, 4)
    const decoded = decodeJupiterSwap(roundTripOne(jupiter(data, accounts), wallet))
    expect(decoded).toMatchObject({ outAmount: 5n, quotedInAmount: 6n })
    expect(decoded?.sourceMint).toBeUndefined()
    expect(decoded?.destinationMint).toBeUndefined()
  })

  it('answers undefined for the plain route instruction and other programs', () => {
    const route = [...anchorDiscriminator('route'), ...routePlan([RAYDIUM]), ...tail(1n, 1n, 1, 0)]
    expect(
      decodeJupiterSwap(roundTripOne(jupiter(route, exactOutAccounts(WSOL, USDC)), wallet)),
    ).toBeUndefined()
    const shared = [
      ...anchorDiscriminator('shared_accounts_route'),
      0,
      ...routePlan([RAYDIUM]),
      ...tail(1n, 1n, 1, 0),
    ]
    const elsewhere = {
      ...jupiter(shared, sharedAccounts(WSOL, USDC)),
      programAddress: testAddress(9),
    }
    expect(decodeJupiterSwap(roundTripOne(elsewhere, wallet))).toBeUndefined()
  })

  it('answers undefined when the data is too short for the fixed arguments', () => {
    const data = [...anchorDiscriminator('shared_accounts_route'), 0, ...routePlan([]), 1, 2, 3]
    const instruction = roundTripOne(jupiter(data, sharedAccounts(WSOL, USDC)), wallet)
    expect(decodeJupiterSwap(instruction)).toBeUndefined()
  })
})
