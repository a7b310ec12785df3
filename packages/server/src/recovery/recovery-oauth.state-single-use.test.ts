import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CloudTestInstance, getCloudTestInstance, pkce, REDIRECT_TO } from '../test/cloud.ts'

// Security bar 12 (RFC 9700 §2.1): a consent's state works once. It is spent
// atomically before the provider exchange, so a replay or a concurrent double
// submit gets exactly one success, and Google sees one exchange.
let t: CloudTestInstance
let token: string
beforeAll(async () => {
  t = await getCloudTestInstance()
  token = await t.userToken('alice@example.com')
})
afterAll(() => t.close())

const authenticate = (body: object) =>
  t.enclaveRequest(routes.recoveryOAuthAuthenticate, { token, body })

it('a Google Drive state works once; a replay is 400 OAUTH_STATE_MISMATCH without a call to Google', async () => {
  const consent = await t.googleConsent(token)
  const body = {
    provider: 'google-drive',
    authorization_code: consent.code,
    state_code: consent.state,
    code_verifier: consent.verifier,
  }
  const first = await authenticate(body)
  expect(first).toMatchObject({
    status: 200,
    body: { provider: 'google-drive', api_base_url: t.google.apiBaseUrl },
  })
  expect(first.body.access_token).toEqual(expect.any(String))
  const exchanges = t.google.tokenRequests
  const replay = await authenticate(body)
  expect(replay).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
  expect(replay.body.message).toBe('Unexpected auth flow. This may be a phishing attempt.')
  expect(t.google.tokenRequests).toBe(exchanges)
})

it('a concurrent double submit of one state yields exactly one success and one exchange', async () => {
  const consent = await t.googleConsent(token)
  const exchanges = t.google.tokenRequests
  const results = await Promise.all(
    Array.from({ length: 5 }, () =>
      authenticate({
        provider: 'google-drive',
        authorization_code: consent.code,
        state_code: consent.state,
        code_verifier: consent.verifier,
      }),
    ),
  )
  expect(results.filter((r) => r.status === 200)).toHaveLength(1)
  expect(
    results.filter((r) => r.status === 400 && r.body.code === 'OAUTH_STATE_MISMATCH'),
  ).toHaveLength(4)
  expect(t.google.tokenRequests).toBe(exchanges + 1)
})

it('an iCloud state works once, also under a concurrent double submit', async () => {
  const consent = await t.icloudConsent(token)
  const body = { provider: 'icloud', authorization_code: consent.code, state_code: consent.state }
  const results = await Promise.all([authenticate(body), authenticate(body), authenticate(body)])
  expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400])
  expect(await authenticate(body)).toMatchObject({
    status: 400,
    body: { code: 'OAUTH_STATE_MISMATCH' },
  })
})

it('a failed exchange spends the state too: the retry needs a new consent', async () => {
  const consent = await t.googleConsent(token)
  const wrong = await authenticate({
    provider: 'google-drive',
    authorization_code: 'not-a-code-google-issued',
    state_code: consent.state,
    code_verifier: consent.verifier,
  })
  expect(wrong).toMatchObject({ status: 424, body: { code: 'CLOUD_RECOVERY_FAILED' } })
  expect(
    await authenticate({
      provider: 'google-drive',
      authorization_code: consent.code,
      state_code: consent.state,
      code_verifier: consent.verifier,
    }),
  ).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
})

it('a state code names one consent: init with a state code already recorded is refused', async () => {
  const consent = await t.googleConsent(token)
  const again = await t.request(routes.recoveryOAuthInit, {
    token,
    body: {
      provider: 'google-drive',
      redirect_to: REDIRECT_TO,
      code_challenge: pkce().challenge,
      state_code: consent.state,
    },
  })
  expect(again).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
  const icloud = await t.request(routes.recoveryOAuthInitIcloud, {
    token,
    body: { client_type: 'web', redirect_to: REDIRECT_TO, state_code: consent.state },
  })
  expect(icloud).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
})

it('the state is stored only as a keyed hash', async () => {
  const consent = await t.googleConsent(token)
  const rows = await t.db.selectFrom('recovery_oauth_states').selectAll().execute()
  expect(JSON.stringify(rows)).not.toContain(consent.state)
  expect(rows.every((r) => /^[\w-]{43}$/.test(r.state_hash))).toBe(true)
})
