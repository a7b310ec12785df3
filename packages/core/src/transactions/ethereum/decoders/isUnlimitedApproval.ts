/** 2^255: half of the uint256 range. */
const UNLIMITED_THRESHOLD = 2n ** 255n

/**
 * Whether an ERC-20 allowance is effectively unlimited, shown as 'Maximum'
 * (spec 03 §9 "Unlimited ERC-20 approval"). `maxUint256` is the usual value,
 * but some apps approve other huge numbers (2^255, `maxUint256 - 1`);
 * anything at or above 2^255 is beyond any real token supply, so it is
 * treated as unlimited too. Below that, the amount is shown as a number.
 *
 * @example
 * isUnlimitedApproval(maxUint256) // true
 * isUnlimitedApproval(1_000_000n) // false
 */
export function isUnlimitedApproval(amount: bigint): boolean {
  return amount >= UNLIMITED_THRESHOLD
}
