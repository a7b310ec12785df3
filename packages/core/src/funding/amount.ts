/**
 * The funding amount field's filter (spec 03 §5 "Funding amount input"):
 * keeps digits and the first decimal point, drops everything else.
 *
 * @example
 * sanitizeFundingAmount('1,5.2.0 ETH') // '15.20'
 */
export function sanitizeFundingAmount(text: string): string {
  const kept = text.replace(/[^\d.]/g, '')
  const point = kept.indexOf('.')
  if (point === -1) return kept
  return `${kept.slice(0, point + 1)}${kept.slice(point + 1).replace(/\./g, '')}`
}

/**
 * Whether Continue is enabled for this amount (spec 03 §5): a plain decimal
 * (digits, at most one point) greater than 0. Exact on any length: no
 * floating point is involved.
 *
 * @example
 * isFundingAmountValid('0.01') // true
 * isFundingAmountValid('0.00') // false
 */
export function isFundingAmountValid(text: string): boolean {
  return /^(\d+\.?\d*|\.\d+)$/.test(text) && /[1-9]/.test(text)
}
