import { sessionStore } from '../tab-storage.ts'

// Apart from pending-keys.ts, which the provider reads on every mount: only
// the redirect flows themselves (lazy) read their records (docs/first-load.md).

/** What every redirect flow keeps while it is away: its state, PKCE verifier and start time. */
export interface PendingRedirect {
  stateCode: string
  codeVerifier: string
  createdAt: number
}

/**
 * The pending record under `key`, or null when there is none, it is not one
 * this code wrote, or it is older than `maxAgeMs`.
 */
export function readPendingRedirect<T extends PendingRedirect>(
  key: string,
  now: number,
  maxAgeMs: number,
): T | null {
  const raw = sessionStore()?.getItem(key)
  if (!raw) return null
  try {
    const pending = JSON.parse(raw) as T
    if (typeof pending.stateCode !== 'string' || typeof pending.codeVerifier !== 'string')
      return null
    return now - pending.createdAt <= maxAgeMs ? pending : null
  } catch {
    return null
  }
}
