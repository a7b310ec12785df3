// Apart from redirect.ts, whose codes and PKCE only the redirect flows (lazy)
// need: the provider checks for a pending redirect on every mount
// (flows/pending-keys.ts), from the first chunk (docs/first-load.md).

/** This tab's sessionStorage, or null where it is unavailable (privacy modes, sandboxed frames). */
export function sessionStore(): Storage | null {
  try {
    return globalThis.sessionStorage ?? null
  } catch {
    return null
  }
}
