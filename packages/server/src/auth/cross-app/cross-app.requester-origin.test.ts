import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CrossAppFixture, crossAppFixture, pkce } from './cross-app.fixture.ts'

let f: CrossAppFixture
beforeAll(async () => {
  f = await crossAppFixture()
})
afterAll(() => f.t.close())

it('no code for an origin the requester app does not allow', async () => {
  const p = await f.providerUser('origin@cross.test')
  const res = await f.authorize(p.token, { origin: 'http://attacker.test' })
  expect(res).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
  expect(await f.t.countRows('cross_app_codes')).toBe(0)
})

it('a code is traded only from the origin it was posted to', async () => {
  // A requester with two origins; the code went to the first.
  const two = await f.t.createApp({}, ['http://one.test', 'http://two.test'])
  const open = await f.t.createApp(
    { cross_app: { enabled: true, custom_api_url: 'http://app.test/wallet' } },
    ['http://app.test'],
  )
  const auth = await f.t.login('origin2@cross.test', { appId: open.id })
  const { verifier, challenge } = pkce()
  const issued = await f.t.request(routes.crossAppAuthorize, {
    appId: open.id,
    origin: 'http://app.test',
    token: auth.token as string,
    body: { requester_app_id: two.id, code_challenge: challenge, origin: 'http://one.test' },
  })
  const trade = (origin: string) =>
    f.t.request(routes.crossAppAuthenticate, {
      appId: two.id,
      origin,
      body: { provider_app_id: open.id, code: issued.body.code, code_verifier: verifier },
    })
  expect(await trade('http://two.test')).toMatchObject({
    status: 400,
    body: { code: 'CROSS_APP_CONNECT_FAILED', details: { reason: 'origin' } },
  })
})
