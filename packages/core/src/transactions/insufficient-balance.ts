import { LatchkeyError } from '../errors.ts'

/**
 * INSUFFICIENT_BALANCE in spec 03 §5 / §8's words: 'Wallet {address} does
 * not have enough funds.' on Ethereum, 'Solana wallet has insufficient funds
 * for this transaction.' on Solana. Thrown before anything is signed.
 *
 * @example
 * if (!prepared.hasFunds) throw insufficientBalance('ethereum', wallet.address, { balance })
 */
export function insufficientBalance(
  chainType: 'ethereum' | 'solana',
  address: string,
  details: Record<string, unknown> = {},
): LatchkeyError {
  return new LatchkeyError(
    'INSUFFICIENT_BALANCE',
    chainType === 'solana'
      ? 'Solana wallet has insufficient funds for this transaction.'
      : `Wallet ${address} does not have enough funds.`,
    { details: { address, ...details } },
  )
}
