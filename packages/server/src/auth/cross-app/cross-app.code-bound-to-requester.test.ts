import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CrossAppFixture, crossAppFixture, pkce } from './cross-app.fixture.ts'

let f: CrossAppFixture
beforeAll(async () => {
  f = await crossAppFixture()
})
afterAll(() => f.t.close())

it('another requester app cannot trade a code issued for this one', async () => {
  const other = await f.t.createApp({}, ['http://other.test'])
  const p = await f.providerUser('bound@cross.test')
  const { verifier, challenge } = pkce()
  const code = (await f.authorize(p.token, { challenge })).body.code
  const stolen = await f.authenticate({
    code,
    verifier,
    appId: other.id,
    origin: 'http://other.test',
  })
  // The provider allows only R: refused as an invalid connected app.
  expect(stolen).toMatchObject({ status: 404, body: { code: 'CROSS_APP_INVALID_APP' } })
  // The code is still R's.
  expect((await f.authenticate({ code, verifier })).status).toBe(200)
})

it('a provider that allows every requester still binds the code to one', async () => {
  const open = await f.t.createApp(
    { cross_app: { enabled: true, custom_api_url: 'http://app.test/wallet' } },
    ['http://app.test'],
  )
  const other = await f.t.createApp({}, ['http://other2.test'])
  const auth = await f.t.login('open@cross.test', { appId: open.id })
  const { verifier, challenge } = pkce()
  const issued = await f.t.request('/api/v1/cross-app/authorize', {
    appId: open.id,
    origin: 'http://app.test',
    token: auth.token as string,
    body: {
      requester_app_id: f.requester.id,
      code_challenge: challenge,
      origin: 'http://requester.test',
    },
  })
  expect(issued.status).toBe(200)
  const res = await f.t.request('/api/v1/cross-app/authenticate', {
    appId: other.id,
    origin: 'http://other2.test',
    body: { provider_app_id: open.id, code: issued.body.code, code_verifier: verifier },
  })
  expect(res).toMatchObject({ status: 400, body: { code: 'CROSS_APP_CONNECT_FAILED' } })
})

it('the provider refuses a requester it does not list', async () => {
  const other = await f.t.createApp({}, ['http://other3.test'])
  const p = await f.providerUser('unlisted@cross.test')
  const res = await f.authorize(p.token, { requesterAppId: other.id, origin: 'http://other3.test' })
  expect(res).toMatchObject({ status: 404, body: { code: 'CROSS_APP_INVALID_APP' } })
})
