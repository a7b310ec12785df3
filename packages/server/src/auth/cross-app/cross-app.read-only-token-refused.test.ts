import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CrossAppFixture, crossAppFixture, pkce } from './cross-app.fixture.ts'

let f: CrossAppFixture
beforeAll(async () => {
  f = await crossAppFixture({ readOnly: true })
})
afterAll(() => f.t.close())

it('a read-only provider logs requesters in but refuses their transact tokens', async () => {
  const { routes } = await import('@latchkey/protocol')
  const p = await f.providerUser('ro@cross.test')
  const { verifier, challenge } = pkce()
  const code = (await f.authorize(p.token, { challenge })).body.code
  const login = await f.authenticate({ code, verifier })
  expect(login.status).toBe(200)
  expect(login.body.cross_app.read_only).toBe(true)
  const res = await f.t.request(routes.crossAppTransactVerify, {
    appId: f.provider.id,
    origin: 'http://app.test',
    token: p.token,
    body: { token: login.body.cross_app.token, origin: 'http://requester.test' },
  })
  expect(res).toMatchObject({
    status: 403,
    body: {
      code: 'CROSS_APP_READ_ONLY',
      message: 'Cannot transact against a read-only provider app',
    },
  })
})
