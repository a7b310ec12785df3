import { formatUnits } from 'viem'

// Spec 03 §9 "Token display": "zero shows '<0.001'". Read as: an amount that
// is not zero but rounds to zero at the display precision shows '<0.001'. An
// amount that IS zero shows '0' — '<0.001' would misstate a zero-value send.
const ROUNDS_TO_ZERO = '<0.001'
// Spec 03 §9 "Token display": native amounts up to 6 decimals.
const NATIVE_FRACTION_DIGITS = 6
// Token amounts keep up to 3 significant fraction digits (see formatTokenAmount).
const TOKEN_SIGNIFICANT_DIGITS = 3

const usd = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
})

/**
 * A dollar value for display (spec 03 §9 "USD display"): 2 decimals with
 * thousands separators; a value under $0.01 but not zero shows '<$0.01', and
 * zero shows '$0.00'. A negative value keeps its sign ('-$1.50', '-<$0.01').
 * Dollar values are prices times amounts, already approximate, so a `number`
 * is fine here; token amounts themselves go through `formatTokenAmount`.
 *
 * @example
 * formatUsd(1234.567) // '$1,234.57'
 * formatUsd(0.004) // '<$0.01'
 * formatUsd(0) // '$0.00'
 */
export function formatUsd(value: number): string {
  if (value !== 0 && Math.abs(value) < 0.01) return `${value < 0 ? '-' : ''}<$0.01`
  return usd.format(value === 0 ? 0 : value)
}

/**
 * A token amount for display (spec 03 §9 "Token display": adaptive precision,
 * at least 1 and at most the token's decimals). Exact bigint arithmetic, no
 * floats. The number of fraction digits adapts to the amount: 3 for an amount
 * of 1 or more, and for a smaller one enough to show its first 3 significant
 * digits; never more than `decimals`. The last digit is rounded half up and
 * trailing zeros are dropped; there are no thousands separators. Since the
 * precision can reach `decimals`, a nonzero amount always shows at least one
 * significant digit; '<0.001' is kept only as the guard for one that would
 * round to zero.
 *
 * @example
 * formatTokenAmount(1_500_000n, 6) // '1.5' (1.5 USDC)
 * formatTokenAmount(123n, 6) // '0.000123'
 * formatTokenAmount(1_234_567_891n, 6) // '1234.568'
 */
export function formatTokenAmount(amount: bigint, decimals: number): string {
  assertDecimals(decimals)
  return withSign(amount, (abs) => {
    const digits = abs.toString().length
    // Zeros between the decimal point and the first significant digit.
    const leadingZeros = Math.max(0, decimals - digits)
    const fractionDigits = abs >= 10n ** BigInt(decimals) ? 0 : leadingZeros
    return round(abs, decimals, Math.min(decimals, fractionDigits + TOKEN_SIGNIFICANT_DIGITS))
  })
}

/**
 * A native currency amount (ETH, POL, …) for display (spec 03 §9 "Token
 * display": native amounts up to 6 decimals). Exact bigint arithmetic; the
 * sixth fraction digit is rounded half up and trailing zeros are dropped. A
 * nonzero amount that rounds to zero (under 0.0000005) shows '<0.001', the
 * spec's text; zero shows '0'.
 *
 * @example
 * formatNativeAmount(parseEther('0.0123456789')) // '0.012346'
 * formatNativeAmount(1000n) // '<0.001' (1000 wei)
 * formatNativeAmount(0n) // '0'
 */
export function formatNativeAmount(amount: bigint, decimals = 18): string {
  assertDecimals(decimals)
  return withSign(amount, (abs) => round(abs, decimals, Math.min(decimals, NATIVE_FRACTION_DIGITS)))
}

function assertDecimals(decimals: number): void {
  if (!Number.isInteger(decimals) || decimals < 0) {
    throw new RangeError(`decimals must be a whole number of 0 or more, got ${decimals}`)
  }
}

function withSign(amount: bigint, format: (abs: bigint) => string): string {
  if (amount === 0n) return '0'
  return amount < 0n ? `-${format(-amount)}` : format(amount)
}

/** `abs` (> 0, in units of 10^-decimals) rounded half up to `fractionDigits`. */
function round(abs: bigint, decimals: number, fractionDigits: number): string {
  const step = 10n ** BigInt(decimals - fractionDigits)
  let scaled = abs / step
  if ((abs % step) * 2n >= step) scaled += 1n
  if (scaled === 0n) return ROUNDS_TO_ZERO
  return formatUnits(scaled, fractionDigits)
}
