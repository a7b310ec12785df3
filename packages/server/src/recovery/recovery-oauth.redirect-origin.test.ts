import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CloudTestInstance, getCloudTestInstance, pkce, stateCode } from '../test/cloud.ts'
import { TEST_ORIGIN } from '../test/instance.ts'

// Security bar 15 (RFC 9700 §2.1, §4.1): the page a provider returns the user
// to must be on one of the app's exact origins; no open redirect. A refused
// redirect records no state.
let t: CloudTestInstance
let token: string
beforeAll(async () => {
  t = await getCloudTestInstance()
  token = await t.userToken('alice@example.com')
})
afterAll(() => t.close())

const initGoogle = (redirect_to: string) =>
  t.request(routes.recoveryOAuthInit, {
    token,
    body: {
      provider: 'google-drive',
      redirect_to,
      code_challenge: pkce().challenge,
      state_code: stateCode(),
    },
  })
const initIcloud = (redirect_to: string) =>
  t.request(routes.recoveryOAuthInitIcloud, {
    token,
    body: { client_type: 'web', redirect_to, state_code: stateCode() },
  })

it('a page of an allowed origin is the redirect_uri Google gets', async () => {
  for (const page of [`${TEST_ORIGIN}/wallet?step=backup`, `${TEST_ORIGIN}/`]) {
    const res = await initGoogle(page)
    expect(res.status).toBe(200)
    expect(new URL(res.body.url).searchParams.get('redirect_uri')).toBe(page)
  }
  expect((await initIcloud(`${TEST_ORIGIN}/wallet`)).status).toBe(200)
})

it('any other origin is 403 ORIGIN_NOT_ALLOWED and records nothing', async () => {
  const before = await t.countRows('recovery_oauth_states')
  for (const page of [
    'http://evil.test/wallet',
    'http://app.test.evil.test/wallet', // look-alike suffix
    'http://evil.test/http://app.test/',
    'http://evil.test/?next=http://app.test',
    'https://app.test/wallet', // other scheme
    'http://app.test:8080/wallet', // other port
    'http://sub.app.test/wallet',
  ]) {
    expect(await initGoogle(page), page).toMatchObject({
      status: 403,
      body: { code: 'ORIGIN_NOT_ALLOWED' },
    })
    expect(await initIcloud(page), page).toMatchObject({
      status: 403,
      body: { code: 'ORIGIN_NOT_ALLOWED' },
    })
  }
  expect(await t.countRows('recovery_oauth_states')).toBe(before)
})

it('malformed redirects are 400 INVALID_PAYLOAD (credentials, fragment, non-http schemes)', async () => {
  const before = await t.countRows('recovery_oauth_states')
  for (const page of [
    'http://app.test@evil.test/',
    'http://user:pass@app.test/',
    'http://app.test/wallet#fragment',
    'javascript:alert(1)',
    'data:text/html,hi',
    '/wallet',
  ]) {
    for (const res of [await initGoogle(page), await initIcloud(page)])
      expect(res, page).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
  }
  expect(await t.countRows('recovery_oauth_states')).toBe(before)
})

it("an app's origins bound its own consents only", async () => {
  const other = await t.createApp(t.app.settings, ['https://other.example'])
  await t.server.setAppProviderCredentials(other.id, {
    provider: 'google-drive',
    client_id: 'other.apps.googleusercontent.com',
    client_secret: 'other-secret',
  })
  const otherToken = (await t.login('carol@example.com', { appId: other.id })).token ?? ''
  const res = await t.request(routes.recoveryOAuthInit, {
    token: otherToken,
    appId: other.id,
    body: {
      provider: 'google-drive',
      redirect_to: `${TEST_ORIGIN}/wallet`,
      code_challenge: pkce().challenge,
      state_code: stateCode(),
    },
  })
  expect(res).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
})
