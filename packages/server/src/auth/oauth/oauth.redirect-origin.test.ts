import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getOAuthTestInstance, type OAuthTestInstance } from './oauth.fixture.ts'

// Security bar 15 (RFC 9700 §2.1): the provider may only send the user back
// to a page of one of the app's exact origins; nothing is recorded otherwise.
let t: OAuthTestInstance
beforeAll(async () => {
  t = await getOAuthTestInstance()
})
afterAll(() => t.close())

const init = (redirect_to: string) =>
  t.request(routes.oauthInit, {
    body: {
      provider: 'google',
      redirect_to,
      code_challenge: 'A'.repeat(43),
      state_code: Math.random().toString(36).slice(2).padEnd(24, 'q'),
    },
  })

it.each([
  'https://app.test/login',
  'http://app.test.evil.com/login',
  'http://evil.com/?http://app.test',
  'http://app.test:8080/login',
])('refuses %s with 403 ORIGIN_NOT_ALLOWED', async (url) => {
  const before = await t.countRows('oauth_login_states')
  expect(await init(url)).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
  expect(await t.countRows('oauth_login_states')).toBe(before)
})

it.each([
  'javascript:alert(1)',
  'http://user:pw@app.test/login',
  'http://app.test/login#frag',
  '/login',
])('refuses %s with 400 INVALID_PAYLOAD', async (url) => {
  expect(await init(url)).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
})

it('accepts a page of the app origin, and the provider gets exactly that redirect_uri', async () => {
  const res = await init('http://app.test/some/page?x=1')
  expect(res.status).toBe(200)
  expect(new URL(res.body.url).searchParams.get('redirect_uri')).toBe(
    'http://app.test/some/page?x=1',
  )
})
