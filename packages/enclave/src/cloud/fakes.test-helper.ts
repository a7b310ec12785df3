import { createHash, randomBytes } from 'node:crypto'
import type { FakeGoogle } from '@latchkey/server/test/fakes'

// Cloud test peers for enclave tests: the server package's fake Google and
// CloudKit, and the OAuth steps a browser and the Latchkey server would take.

export const GOOGLE_CLIENT = { clientId: 'latchkey-test-client', clientSecret: 'test-secret' }
export const ICLOUD = {
  containerId: 'iCloud.com.example.latchkey',
  environment: 'development' as const,
  apiToken: 'cloudkit-api-token',
}
export const REDIRECT_URI = 'https://app.example.com/oauth/return'

/** Node's own fetch, whatever the test environment installs as `globalThis.fetch`. */
export const nodeFetch = (input: string, init: RequestInit) => fetch(input, init)

/** A PKCE S256 pair (RFC 7636). */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** The token exchange the Latchkey server makes (RFC 6749 §4.1.3 + PKCE). */
export async function exchangeGoogleCode(
  google: FakeGoogle,
  code: string,
  verifier: string,
): Promise<{ access_token: string; expires_in: number }> {
  const res = await fetch(google.tokenUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: GOOGLE_CLIENT.clientId,
      client_secret: GOOGLE_CLIENT.clientSecret,
      code_verifier: verifier,
    }),
  })
  if (!res.ok) throw new Error(`token exchange failed: ${res.status} ${await res.text()}`)
  return (await res.json()) as { access_token: string; expires_in: number }
}

/** A drive.appdata access token of `account`, as consent + exchange would give. */
export async function googleAccessToken(google: FakeGoogle, account: string): Promise<string> {
  const { verifier, challenge } = pkce()
  const code = google.issueCode({
    clientId: GOOGLE_CLIENT.clientId,
    redirectUri: REDIRECT_URI,
    codeChallenge: challenge,
    account,
  })
  return (await exchangeGoogleCode(google, code, verifier)).access_token
}
