import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getOAuthTestInstance, type OAuthTestInstance } from './oauth.fixture.ts'
import { missingScopes, OAUTH_PROVIDER_SPECS } from './providers.ts'

// Spec 01 §8 "OAuth": a permission the user left unticked at the provider is
// "user denied: retry and check the box" (400 OAUTH_SCOPE_DENIED, retryable);
// an account the provider says is suspended is 'account suspended, try
// another method' (403 OAUTH_ACCOUNT_SUSPENDED). Neither creates a user.
let t: OAuthTestInstance
beforeAll(async () => {
  t = await getOAuthTestInstance()
  const base = { name: null, emails: [] }
  t.github.accounts.set('unticked', {
    ...base,
    id: 501,
    login: 'unticked',
    grantedScope: 'read:user',
  })
  t.github.accounts.set('banned', { ...base, id: 502, login: 'banned', suspended: true })
  t.github.accounts.set('superset', { ...base, id: 503, login: 'superset', grantedScope: 'user' })
})
afterAll(() => t.close())

async function logIn(login: string) {
  const r = await t.redirect('github', { accountId: login })
  return t.request(routes.oauthAuthenticate, {
    body: {
      provider: 'github',
      authorization_code: r.code,
      state_code: r.state,
      code_verifier: r.verifier,
    },
  })
}

it('a scope the user did not grant is 400 OAUTH_SCOPE_DENIED, and no user', async () => {
  const users = await t.countRows('users')
  const res = await logIn('unticked')
  expect(res).toMatchObject({
    status: 400,
    body: { code: 'OAUTH_SCOPE_DENIED', message: 'A permission was not granted' },
  })
  expect(await t.countRows('users')).toBe(users)
})

it('a broader scope that covers the asked ones is enough', async () => {
  expect((await logIn('superset')).status).toBe(200)
})

it('an account the provider says is suspended is 403 OAUTH_ACCOUNT_SUSPENDED', async () => {
  const users = await t.countRows('users')
  const res = await logIn('banned')
  expect(res).toMatchObject({
    status: 403,
    body: { code: 'OAUTH_ACCOUNT_SUSPENDED', message: 'account suspended, try another method' },
  })
  expect(await t.countRows('users')).toBe(users)
})

describe('missingScopes', () => {
  const { google, github, twitter } = OAUTH_PROVIDER_SPECS
  it('reads the granted list, with the names providers report scopes by', () => {
    const googleGrant = [
      'openid',
      'https://www.googleapis.com/auth/userinfo.email',
      'https://www.googleapis.com/auth/userinfo.profile',
    ]
    expect(missingScopes(google, googleGrant)).toEqual([])
    expect(missingScopes(google, googleGrant.slice(0, 2))).toEqual(['profile'])
    expect(missingScopes(github, ['user'])).toEqual([])
    expect(missingScopes(twitter, ['tweet.read', 'offline.access'])).toEqual(['users.read'])
  })

  it('an answer that reports no scope grants what was asked', () => {
    expect(missingScopes(twitter, [])).toEqual([])
  })
})
