/** A scripted `fetch` for core's unit tests: each call is answered by the next handler. */
export interface RecordedCall {
  url: string
  method: string
  headers: Record<string, string>
  body: unknown
}

export type Handler = (call: RecordedCall) => Response | Promise<Response>

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  })
}

export function createFakeFetch(handler: Handler) {
  const calls: RecordedCall[] = []
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const headers: Record<string, string> = {}
    new Headers(init?.headers).forEach((value, key) => {
      headers[key] = value
    })
    const call: RecordedCall = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    }
    calls.push(call)
    return handler(call)
  }) as typeof globalThis.fetch
  return { fetch, calls }
}

/** An unsigned JWT with the given claims: the client only decodes tokens. */
export function fakeJwt(claims: Record<string, unknown>): string {
  const encode = (value: unknown) =>
    btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')
  return `${encode({ alg: 'ES256', typ: 'at+jwt' })}.${encode(claims)}.sig`
}

export const APP_ID = 'testappaaaaaaaaaaaaaaaaaa'

export function wireUser(email = 'alice@example.com') {
  return {
    id: 'did:latchkey:useraaaaaaaaaaaaaaaaaaaaa',
    created_at: 1_700_000_000,
    linked_accounts: [
      {
        type: 'email' as const,
        address: email,
        verified_at: 1_700_000_000,
        first_verified_at: 1_700_000_000,
        latest_verified_at: 1_700_000_000,
      },
    ],
    mfa_methods: [],
    has_accepted_terms: false,
    is_guest: false,
  }
}

export function authResponse(options: { exp: number; aud?: string; refresh?: string }) {
  return {
    user: wireUser(),
    is_new_user: false,
    token: fakeJwt({
      sub: 'did:latchkey:useraaaaaaaaaaaaaaaaaaaaa',
      aud: options.aud ?? APP_ID,
      exp: options.exp,
    }),
    refresh_token: options.refresh ?? 'refresh-2',
    identity_token: 'id-token',
    session_update_action: 'set' as const,
  }
}
