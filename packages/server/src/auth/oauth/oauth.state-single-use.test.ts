import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getOAuthTestInstance, type OAuthTestInstance } from './oauth.fixture.ts'

// Security bar 12 (RFC 9700 §2.1): a login state works once, atomically, and
// only within its 10 minutes; a replay gets the spec's phishing message.
let t: OAuthTestInstance
beforeAll(async () => {
  t = await getOAuthTestInstance()
})
afterAll(() => t.close())

const authenticate = (r: { code: string; state: string; verifier: string }) =>
  t.request(routes.oauthAuthenticate, {
    body: {
      provider: 'google',
      authorization_code: r.code,
      state_code: r.state,
      code_verifier: r.verifier,
      mode: 'login-or-sign-up',
    },
  })

it('a state works once; a replay is 400 OAUTH_STATE_MISMATCH with the phishing message', async () => {
  const r = await t.redirect('google')
  expect((await authenticate(r)).status).toBe(200)
  const replay = await authenticate(r)
  expect(replay).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
  expect(replay.body.message).toBe('Unexpected auth flow. This may be a phishing attempt.')
})

it('a concurrent double submit of one state yields exactly one session', async () => {
  const r = await t.redirect('google')
  const results = await Promise.all(Array.from({ length: 5 }, () => authenticate(r)))
  expect(results.filter((x) => x.status === 200)).toHaveLength(1)
  expect(results.filter((x) => x.body.code === 'OAUTH_STATE_MISMATCH')).toHaveLength(4)
})

it('a state code cannot be registered twice at init', async () => {
  const r = await t.redirect('google')
  const again = await t.request(routes.oauthInit, {
    body: {
      provider: 'google',
      redirect_to: 'http://app.test/login',
      code_challenge: 'A'.repeat(43),
      state_code: r.state,
    },
  })
  expect(again).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
})

it('a state unknown to the server, or older than 10 minutes, is refused', async () => {
  const r = await t.redirect('google')
  expect(await authenticate({ ...r, state: 'x'.repeat(22) })).toMatchObject({
    status: 400,
    body: { code: 'OAUTH_STATE_MISMATCH' },
  })
  t.advance(10 * 60_000 + 1)
  try {
    expect(await authenticate(r)).toMatchObject({
      status: 400,
      body: { code: 'OAUTH_STATE_MISMATCH' },
    })
  } finally {
    t.advance(-(10 * 60_000 + 1))
  }
})
