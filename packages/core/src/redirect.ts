/*
 * What every flow that leaves the page for a provider and comes back needs
 * (OAuth login, Telegram, cloud recovery): this tab's sessionStorage, random
 * codes, the PKCE challenge, and the page to come back to.
 */

// A module of its own: the provider reads it on every mount (flows/pending-keys.ts).
export { sessionStore } from './tab-storage.ts'

export const base64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')

/** `bytes` CSPRNG bytes, base64url (state codes, PKCE verifiers). */
export const randomCode = (bytes: number) =>
  base64url(crypto.getRandomValues(new Uint8Array(bytes)))

/** RFC 7636 S256: base64url(SHA-256(verifier)). */
export async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))
  return base64url(new Uint8Array(digest))
}

/** The page a provider returns to: this page without query or fragment. */
export const currentPage = () => `${globalThis.location.origin}${globalThis.location.pathname}`
