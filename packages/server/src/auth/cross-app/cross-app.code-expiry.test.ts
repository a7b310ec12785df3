import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CrossAppFixture, crossAppFixture, pkce } from './cross-app.fixture.ts'

let f: CrossAppFixture
beforeAll(async () => {
  f = await crossAppFixture()
})
afterAll(() => f.t.close())

it('a code expires after 2 minutes', async () => {
  const p = await f.providerUser('late@cross.test')
  const { verifier, challenge } = pkce()
  const code = (await f.authorize(p.token, { challenge })).body.code
  f.t.clock.advance(2 * 60_000)
  expect(await f.authenticate({ code, verifier })).toMatchObject({
    status: 400,
    body: { code: 'CROSS_APP_CONNECT_FAILED', details: { reason: 'invalid_code' } },
  })
})

it('a code traded within 2 minutes works', async () => {
  const p = await f.providerUser('intime@cross.test')
  const { verifier, challenge } = pkce()
  const code = (await f.authorize(p.token, { challenge })).body.code
  f.t.clock.advance(2 * 60_000 - 1)
  expect((await f.authenticate({ code, verifier })).status).toBe(200)
})
