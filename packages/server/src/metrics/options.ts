/**
 * Who may read `GET /metrics` (docs/operations.md "Metrics"). Metrics reveal
 * traffic (logins per method, wallet operations, refusals), so the route is
 * off unless one of these is set:
 * - `token`: callers send `Authorization: Bearer <token>` (compared in
 *   constant time); for a metrics endpoint reachable from the internet;
 * - `public: true`: no token, for a scraper on a private network where the
 *   route is not reachable from outside.
 */
export interface MetricsOptions {
  /** The bearer token a scraper must send; at least 16 characters. */
  token?: string
  /** Serve /metrics without a token (private networks only). */
  public?: boolean
}

/** Shortest token accepted (a guessable token would publish the traffic figures). */
export const METRICS_TOKEN_MIN_LENGTH = 16

/** The access the options grant, or null when /metrics is off; throws on a contradiction. */
export function resolveMetricsAccess(
  options: MetricsOptions | undefined,
): { token: string } | { public: true } | null {
  if (!options) return null
  const { token } = options
  if (token !== undefined && options.public)
    throw new Error(
      'metrics: set either a token (LATCHKEY_METRICS_TOKEN) or public (LATCHKEY_METRICS=public), not both',
    )
  if (token !== undefined) {
    if (token.length < METRICS_TOKEN_MIN_LENGTH)
      throw new Error(
        `LATCHKEY_METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters`,
      )
    return { token }
  }
  return options.public ? { public: true } : null
}

/**
 * `LATCHKEY_METRICS_TOKEN` and `LATCHKEY_METRICS` (only `public` is a value);
 * undefined when neither is set. Called by loadConfigFromEnv (config.ts), the
 * one reader of the environment.
 */
export function metricsOptionsFromEnv(env: NodeJS.ProcessEnv): MetricsOptions | undefined {
  const mode = env.LATCHKEY_METRICS || undefined
  if (mode !== undefined && mode !== 'public')
    throw new Error(`LATCHKEY_METRICS must be 'public' or unset, got ${mode}`)
  const token = env.LATCHKEY_METRICS_TOKEN || undefined
  if (token === undefined && mode === undefined) return undefined
  const options: MetricsOptions = { ...(token !== undefined ? { token } : {}) }
  if (mode === 'public') options.public = true
  resolveMetricsAccess(options)
  return options
}
