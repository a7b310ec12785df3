import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CloudTestInstance, getCloudTestInstance } from '../test/cloud.ts'
import { RECOVERY_OAUTH_STATE_TTL_MS } from './state.ts'

// Security bar 12 (RFC 9700 §2.1): a consent must come back within 10
// minutes; an older state is refused like an unknown one.
let t: CloudTestInstance
let token: string
beforeAll(async () => {
  t = await getCloudTestInstance()
  token = await t.userToken('alice@example.com')
})
afterAll(() => t.close())

const authenticateIcloud = (consent: { code: string; state: string }) =>
  t.enclaveRequest(routes.recoveryOAuthAuthenticate, {
    token,
    body: { provider: 'icloud', authorization_code: consent.code, state_code: consent.state },
  })

it('states live 10 minutes', () => {
  expect(RECOVERY_OAUTH_STATE_TTL_MS).toBe(10 * 60_000)
})

it('a state just inside 10 minutes works', async () => {
  const consent = await t.icloudConsent(token)
  t.clock.advance(RECOVERY_OAUTH_STATE_TTL_MS - 1)
  expect((await authenticateIcloud(consent)).status).toBe(200)
})

it('a state at or past 10 minutes is 400 OAUTH_STATE_MISMATCH, and Google is not called', async () => {
  const icloud = await t.icloudConsent(token)
  const google = await t.googleConsent(token)
  t.clock.advance(RECOVERY_OAUTH_STATE_TTL_MS)
  expect(await authenticateIcloud(icloud)).toMatchObject({
    status: 400,
    body: { code: 'OAUTH_STATE_MISMATCH' },
  })
  const exchanges = t.google.tokenRequests
  expect(
    await t.enclaveRequest(routes.recoveryOAuthAuthenticate, {
      token,
      body: {
        provider: 'google-drive',
        authorization_code: google.code,
        state_code: google.state,
        code_verifier: google.verifier,
      },
    }),
  ).toMatchObject({ status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } })
  expect(t.google.tokenRequests).toBe(exchanges)
})

it('expired states are deleted when new consents start', async () => {
  await t.icloudConsent(token)
  t.clock.advance(RECOVERY_OAUTH_STATE_TTL_MS + 1)
  await t.icloudConsent(token)
  expect(await t.countRows('recovery_oauth_states')).toBe(1)
})
