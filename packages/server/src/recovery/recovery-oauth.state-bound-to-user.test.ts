import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CloudTestInstance, getCloudTestInstance, stateCode } from '../test/cloud.ts'

// Security bar 12 (RFC 9700 §2.1, login CSRF): a state belongs to the user,
// app and provider that started the consent. Anyone else presenting it gets
// the unknown-state answer, and the owner's consent stays usable.
let t: CloudTestInstance
let alice: string
let bob: string
beforeAll(async () => {
  t = await getCloudTestInstance()
  alice = await t.userToken('alice@example.com')
  bob = await t.userToken('bob@example.com')
})
afterAll(() => t.close())

const authenticate = (token: string, body: object, appId?: string) =>
  t.enclaveRequest(routes.recoveryOAuthAuthenticate, { token, body, ...(appId ? { appId } : {}) })

const mismatch = { status: 400, body: { code: 'OAUTH_STATE_MISMATCH' } }

it("another user's state is refused, and its owner can still use it", async () => {
  const consent = await t.googleConsent(alice)
  const body = {
    provider: 'google-drive',
    authorization_code: consent.code,
    state_code: consent.state,
    code_verifier: consent.verifier,
  }
  const exchanges = t.google.tokenRequests
  expect(await authenticate(bob, body)).toMatchObject(mismatch)
  expect(t.google.tokenRequests).toBe(exchanges)
  expect((await authenticate(alice, body)).status).toBe(200)
})

it('a state of one provider does not work for the other', async () => {
  const google = await t.googleConsent(alice)
  expect(
    await authenticate(alice, {
      provider: 'icloud',
      authorization_code: t.cloudKit.issueWebAuthToken('alice@icloud.com'),
      state_code: google.state,
    }),
  ).toMatchObject(mismatch)
  const icloud = await t.icloudConsent(alice)
  expect(
    await authenticate(alice, {
      provider: 'google-drive',
      authorization_code: google.code,
      state_code: icloud.state,
      code_verifier: google.verifier,
    }),
  ).toMatchObject(mismatch)
  // Both remain usable by their own provider.
  expect(
    (
      await authenticate(alice, {
        provider: 'icloud',
        authorization_code: icloud.code,
        state_code: icloud.state,
      })
    ).status,
  ).toBe(200)
})

it('a state of another app is refused, even for the same email', async () => {
  const other = await t.createApp(t.app.settings)
  await t.server.setAppProviderCredentials(other.id, {
    provider: 'icloud',
    container_id: 'iCloud.test.latchkey.app',
    environment: 'development',
    api_token: 'ck0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd',
  })
  const otherAlice =
    (await t.login('alice@example.com', { appId: other.id, enclaveKey: t.enclaveKey })).token ?? ''
  const consent = await t.icloudConsent(alice)
  expect(
    await authenticate(
      otherAlice,
      { provider: 'icloud', authorization_code: consent.code, state_code: consent.state },
      other.id,
    ),
  ).toMatchObject(mismatch)
})

it('an unknown state, and a call without a session, are refused', async () => {
  expect(
    await authenticate(alice, {
      provider: 'icloud',
      authorization_code: 'token',
      state_code: stateCode(),
    }),
  ).toMatchObject(mismatch)
  const consent = await t.icloudConsent(alice)
  const anonymous = await t.enclaveRequest(routes.recoveryOAuthAuthenticate, {
    body: { provider: 'icloud', authorization_code: consent.code, state_code: consent.state },
  })
  expect(anonymous).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  for (const path of [routes.recoveryOAuthInit, routes.recoveryOAuthInitIcloud])
    expect((await t.request(path, { body: {} })).status).toBe(401)
})
