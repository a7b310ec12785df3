import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { OAUTH_PROVIDERS, type OAuthProvider } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { silentLogger } from '../../config.ts'
import { authorizationUrl, exchangeCode, fetchUserinfo } from './client.ts'
import { OAUTH_PROVIDER_SPECS, providerSpec } from './providers.ts'

// The catalogue: each provider's authorization URL, token request shape and
// profile mapping, checked against a local server that records what it gets.
const credentials = { client_id: 'the-client', client_secret: 's3cret' }
const params = {
  redirectTo: 'https://app.example/login',
  state: 'S'.repeat(43),
  codeChallenge: 'C'.repeat(43),
  nonce: 'N'.repeat(43),
}

let base = ''
let last: { headers: Record<string, string | string[] | undefined>; body: string; url: string }
let userinfo: unknown = {}
const server = createServer(async (req, res) => {
  let body = ''
  for await (const chunk of req) body += chunk
  last = { headers: req.headers, body, url: req.url ?? '' }
  res.setHeader('content-type', 'application/json')
  if (req.url?.startsWith('/token'))
    res.end(JSON.stringify({ access_token: 'at', token_type: 'bearer', expires_in: 3600 }))
  else res.end(JSON.stringify(userinfo))
})
beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(() => new Promise<void>((r) => server.close(() => r())))

const local = (provider: OAuthProvider) =>
  providerSpec(provider, {
    endpoints: { [provider]: { tokenUrl: `${base}/token`, userinfoUrl: `${base}/me` } },
  })

it('covers the ten providers of the spec', () => {
  expect(Object.keys(OAUTH_PROVIDER_SPECS).sort()).toEqual([...OAUTH_PROVIDERS].sort())
})

describe('authorization URL', () => {
  it.each(OAUTH_PROVIDERS)('%s: https endpoint, code flow, state, redirect', (provider) => {
    const url = new URL(authorizationUrl(OAUTH_PROVIDER_SPECS[provider], credentials, params))
    expect(url.protocol).toBe('https:')
    expect(url.searchParams.get('response_type')).toBe('code')
    expect(url.searchParams.get('state')).toBe(params.state)
    expect(url.searchParams.get('redirect_uri')).toBe(params.redirectTo)
    const spec = OAUTH_PROVIDER_SPECS[provider]
    expect(url.searchParams.get('code_challenge_method')).toBe(spec.pkce ? 'S256' : null)
    expect(url.searchParams.get('nonce')).toBe(spec.identity === 'id_token' ? params.nonce : null)
  })

  it('TikTok names the client `client_key` and joins scopes with commas', () => {
    const url = new URL(authorizationUrl(OAUTH_PROVIDER_SPECS.tiktok, credentials, params))
    expect(url.searchParams.get('client_key')).toBe('the-client')
    expect(url.searchParams.get('client_id')).toBeNull()
  })

  it('Apple asks for no scope, so the return can be a query (no form_post)', () => {
    const url = new URL(authorizationUrl(OAUTH_PROVIDER_SPECS.apple, credentials, params))
    expect(url.searchParams.get('scope')).toBeNull()
    expect(url.searchParams.get('response_mode')).toBe('query')
  })
})

describe('token request', () => {
  it.each(OAUTH_PROVIDERS)('%s: client authentication and verifier as catalogued', async (p) => {
    const spec = local(p)
    const result = await exchangeCode({ logger: silentLogger }, spec, credentials, {
      code: 'the-code',
      codeVerifier: 'V'.repeat(43),
      redirectTo: params.redirectTo,
      appId: 'app',
    })
    expect(result.tokens.access_token).toBe('at')
    const form = new URLSearchParams(last.body)
    expect(form.get('grant_type')).toBe('authorization_code')
    expect(form.get('code')).toBe('the-code')
    expect(form.get('redirect_uri')).toBe(params.redirectTo)
    expect(form.get('code_verifier')).toBe(spec.pkce ? 'V'.repeat(43) : null)
    if (spec.tokenAuth === 'client_secret_basic') {
      expect(last.headers.authorization).toBe(
        `Basic ${Buffer.from('the-client:s3cret').toString('base64')}`,
      )
      expect(form.get('client_secret')).toBeNull()
    } else {
      expect(form.get(spec.clientIdParam ?? 'client_id')).toBe('the-client')
      expect(form.get('client_secret')).toBe('s3cret')
    }
  })
})

describe('profiles from user endpoints', () => {
  const cases: Array<[OAuthProvider, unknown, object]> = [
    [
      'discord',
      {
        id: '80351110224678912',
        username: 'nelly',
        global_name: 'Nelly',
        avatar: 'a1',
        email: 'N@x.io',
        verified: true,
      },
      {
        subject: '80351110224678912',
        username: 'nelly',
        name: 'Nelly',
        email: 'n@x.io',
        picture: 'https://cdn.discordapp.com/avatars/80351110224678912/a1.png',
      },
    ],
    [
      'discord',
      { id: '1', username: 'u', email: 'unverified@x.io', verified: false },
      { subject: '1', email: null },
    ],
    [
      'linkedin',
      { sub: 'li-1', name: 'Lin Ked', email: 'l@x.io', email_verified: true, picture: 'https://p' },
      { subject: 'li-1', name: 'Lin Ked', email: 'l@x.io', picture: 'https://p' },
    ],
    [
      'spotify',
      {
        id: 'wizzler',
        display_name: 'JM Wizzler',
        email: 'w@x.io',
        images: [{ url: 'https://i' }],
      },
      {
        subject: 'wizzler',
        name: 'JM Wizzler',
        username: 'wizzler',
        email: null,
        picture: 'https://i',
      },
    ],
    [
      'instagram',
      { user_id: '1784', username: 'jayposiris', name: 'Jay' },
      { subject: '1784', username: 'jayposiris', name: 'Jay', email: null },
    ],
    [
      'twitter',
      {
        data: {
          id: '2244994945',
          name: 'X Dev',
          username: 'XDevelopers',
          profile_image_url: 'https://t',
        },
      },
      { subject: '2244994945', username: 'XDevelopers', name: 'X Dev', picture: 'https://t' },
    ],
    [
      'tiktok',
      { data: { user: { open_id: 'oid-1', display_name: 'Tik', avatar_url: 'https://a' } } },
      { subject: 'oid-1', name: 'Tik', picture: 'https://a' },
    ],
    [
      'line',
      { sub: 'U4af4980629', name: 'Taro', picture: 'https://l' },
      { subject: 'U4af4980629', name: 'Taro', picture: 'https://l', email: null },
    ],
    [
      'github',
      {
        id: 1,
        login: 'octocat',
        name: 'monalisa octocat',
        email: 'public@x.io',
        avatar_url: 'https://g',
      },
      { subject: '1', username: 'octocat', email: null },
    ],
  ]
  it.each(cases)('%s: %j', async (provider, body, expected) => {
    userinfo = body
    const spec = providerSpec(provider, {
      endpoints: { [provider]: { userinfoUrl: `${base}/me`, emailsUrl: undefined } },
    })
    const info = await fetchUserinfo({ logger: silentLogger }, spec, 'at')
    expect(last.headers.authorization).toBe('Bearer at')
    expect(spec.profile(info.data)).toMatchObject(expected)
  })

  it('a body without a subject is no profile', () => {
    for (const p of OAUTH_PROVIDERS) expect(OAUTH_PROVIDER_SPECS[p].profile({})).toBeNull()
  })
})
