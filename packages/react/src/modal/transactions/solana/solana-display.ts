import type { SolanaInstruction } from '@latchkey/core/solana'
import { formatNativeAmount, formatTokenAmount } from '@latchkey/core/transactions'
import { shortHex, usdValue } from '../ethereum-display.ts'

// What the Solana confirm screen writes, as plain functions of the decoded
// instructions: the rows only place these strings.

/** Spec 03 §9 "Decimals": SOL has 9. */
export const SOL_DECIMALS = 9
/** Wrapped SOL: a swap from or to this mint moves SOL. */
const WRAPPED_SOL_MINT = 'So11111111111111111111111111111111111111112'

/** Lamports as SOL: '0.5 SOL' (spec 03 §9: native amounts up to 6 decimals). */
export const solText = (lamports: bigint): string =>
  `${formatNativeAmount(lamports, SOL_DECIMALS)} SOL`

/** The dollar value of `lamports` at `usdPrice` per SOL (spec 03 §9); undefined without a price. */
export const solUsd = (lamports: bigint, usdPrice: number | null): string | undefined =>
  usdValue(lamports, SOL_DECIMALS, usdPrice)

/** Base58 in short form: 'So1ana…1111'. */
export const shortAddress = shortHex

/**
 * The lamports leaving `wallet` in its System transfers and account
 * creations: what 'Amount' and the receipt's 'Total' add the fee to.
 */
export function lamportsSent(instructions: readonly SolanaInstruction[], wallet: string): bigint {
  let sent = 0n
  for (const instruction of instructions) {
    const sends = instruction.type === 'sol-transfer' || instruction.type === 'create-account'
    if (sends && instruction.from === wallet) sent += instruction.lamports
  }
  return sent
}

/** 'To': the first transfer's recipient (a SOL transfer's account, an SPL transfer's token account). */
export function firstRecipient(instructions: readonly SolanaInstruction[]): string | null {
  for (const instruction of instructions) {
    if (instruction.type === 'sol-transfer') return instruction.to
    if (instruction.type === 'spl-transfer') return instruction.destination
  }
  return null
}

/**
 * 'Amount' when no SOL leaves the wallet but a token transfer of it does,
 * with its decimals known (TransferChecked): the amount and the mint.
 */
export function tokenTransferText(
  instructions: readonly SolanaInstruction[],
  wallet: string,
): string | null {
  const transfer = instructions.find(
    (i): i is Extract<SolanaInstruction, { type: 'spl-transfer' }> =>
      i.type === 'spl-transfer' && i.owner === wallet && i.decimals !== undefined,
  )
  if (!transfer?.mint || transfer.decimals === undefined) return null
  return `${formatTokenAmount(transfer.amount, transfer.decimals)} ${mintText(transfer.mint)}`
}

const mintText = (mint: string) => (mint === WRAPPED_SOL_MINT ? 'SOL' : shortAddress(mint))

/**
 * A swap's amount of a mint: SOL in SOL; any other token in base units (its
 * decimals are not read) with its mint, short on the rows, full under 'Advanced'.
 */
function swapAmount(amount: bigint, mint?: string, full = false): string {
  if (mint === WRAPPED_SOL_MINT) return solText(amount)
  if (!mint) return amount.toString()
  return `${amount} ${full ? mint : shortAddress(mint)}`
}

const slippage = (bps: number) => `${bps / 100}% slippage`

/** 'Swap' (spec 03 §2): what goes in and what comes out of each Raydium or Jupiter swap. */
export function swapTexts(instructions: readonly SolanaInstruction[]): string[] {
  return instructions.flatMap((i) => {
    switch (i.type) {
      case 'raydium-swap-base-input':
        return [`${i.amountIn} → at least ${i.minimumAmountOut}`]
      case 'raydium-swap-base-output':
        return [`at most ${i.maxAmountIn} → ${i.amountOut}`]
      case 'jupiter-swap-shared-accounts-route':
        return [
          `${swapAmount(i.inAmount, i.sourceMint)} → ~${swapAmount(i.quotedOutAmount, i.destinationMint)} (${slippage(i.slippageBps)})`,
        ]
      case 'jupiter-swap-exact-out-route':
        return [
          `~${swapAmount(i.quotedInAmount, i.sourceMint)} → ${swapAmount(i.outAmount, i.destinationMint)} (${slippage(i.slippageBps)})`,
        ]
      default:
        return []
    }
  })
}

/** One instruction under 'Advanced': its type and its key fields. */
export interface InstructionSummary {
  title: string
  fields: Array<[label: string, value: string]>
}

const INSTRUCTION_TITLES: Record<SolanaInstruction['type'], string> = {
  'sol-transfer': 'SOL transfer',
  'spl-transfer': 'Token transfer',
  'ata-creation': 'Create token account',
  'create-account': 'Create account',
  'spl-init-account': 'Initialize token account',
  'spl-close-account': 'Close token account',
  'spl-sync-native': 'Sync wrapped SOL',
  'raydium-swap-base-input': 'Raydium swap (base input)',
  'raydium-swap-base-output': 'Raydium swap (base output)',
  'jupiter-swap-shared-accounts-route': 'Jupiter swap (shared accounts route)',
  'jupiter-swap-exact-out-route': 'Jupiter swap (exact out route)',
  unknown: 'Unknown instruction',
}

/**
 * Spec 03 §3 "Solana instruction types": each one's fields as 'Advanced'
 * lists them, addresses in full (the rows above shorten them).
 */
export function instructionSummary(i: SolanaInstruction): InstructionSummary {
  const title = INSTRUCTION_TITLES[i.type]
  switch (i.type) {
    case 'sol-transfer':
      return {
        title,
        fields: [
          ['From', i.from],
          ['To', i.to],
          ['Amount', solText(i.lamports)],
        ],
      }
    case 'spl-transfer':
      return {
        title,
        fields: [
          ['From', i.source],
          ['To', i.destination],
          ['Owner', i.owner],
          ...(i.mint ? [['Mint', i.mint] as [string, string]] : []),
          [
            'Amount',
            i.decimals === undefined
              ? i.amount.toString()
              : formatTokenAmount(i.amount, i.decimals),
          ],
        ],
      }
    case 'ata-creation':
      return {
        title,
        fields: [
          ['Account', i.ata],
          ['Owner', i.owner],
          ['Mint', i.mint],
        ],
      }
    case 'create-account':
      return {
        title,
        fields: [
          ['Account', i.newAccount],
          ['Funded with', solText(i.lamports)],
          ['Space', `${i.space} bytes`],
          ['Program', i.owner],
        ],
      }
    case 'spl-init-account':
      return {
        title,
        fields: [
          ['Account', i.account],
          ['Mint', i.mint],
          ['Owner', i.owner],
        ],
      }
    case 'spl-close-account':
      return {
        title,
        fields: [
          ['Account', i.account],
          ['Rent to', i.destination],
        ],
      }
    case 'spl-sync-native':
      return { title, fields: [['Account', i.account]] }
    case 'raydium-swap-base-input':
      return {
        title,
        fields: [
          ['In', `${i.amountIn}`],
          ['Minimum out', `${i.minimumAmountOut}`],
        ],
      }
    case 'raydium-swap-base-output':
      return {
        title,
        fields: [
          ['Maximum in', `${i.maxAmountIn}`],
          ['Out', `${i.amountOut}`],
        ],
      }
    case 'jupiter-swap-shared-accounts-route':
      return {
        title,
        fields: [
          ['In', swapAmount(i.inAmount, i.sourceMint, true)],
          ['Quoted out', swapAmount(i.quotedOutAmount, i.destinationMint, true)],
          ['Slippage', `${i.slippageBps / 100}%`],
        ],
      }
    case 'jupiter-swap-exact-out-route':
      return {
        title,
        fields: [
          ['Quoted in', swapAmount(i.quotedInAmount, i.sourceMint, true)],
          ['Out', swapAmount(i.outAmount, i.destinationMint, true)],
          ['Slippage', `${i.slippageBps / 100}%`],
        ],
      }
    case 'unknown':
      return {
        title,
        fields: [
          ['Program', i.program],
          ['Discriminator', i.discriminator ? `0x${i.discriminator}` : 'none'],
        ],
      }
  }
}
