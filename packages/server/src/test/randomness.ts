/**
 * Pearson's chi-square statistic of observed counts against a uniform
 * expectation: the sum over buckets of (observed − expected)² / expected.
 * Randomness tests compare it with a bound whose tail probability under the
 * chi-square distribution (degrees of freedom = buckets − 1) is below 1e-10,
 * so a correct CSPRNG fails such a test about once in ten billion runs.
 *
 * @example
 * chiSquareUniform([9_980, 10_020]) // 0.08
 */
export function chiSquareUniform(counts: readonly number[]): number {
  const total = counts.reduce((sum, n) => sum + n, 0)
  const expected = total / counts.length
  return counts.reduce((sum, n) => sum + (n - expected) ** 2 / expected, 0)
}
