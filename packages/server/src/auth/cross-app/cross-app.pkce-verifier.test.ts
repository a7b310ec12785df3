import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CrossAppFixture, crossAppFixture, pkce } from './cross-app.fixture.ts'

let f: CrossAppFixture
beforeAll(async () => {
  f = await crossAppFixture()
})
afterAll(() => f.t.close())

it('a code is useless without the verifier of its challenge, and a wrong one burns it', async () => {
  const p = await f.providerUser('pkce@cross.test')
  const { verifier, challenge } = pkce()
  const code = (await f.authorize(p.token, { challenge })).body.code
  const wrong = await f.authenticate({ code, verifier: pkce().verifier })
  expect(wrong).toMatchObject({
    status: 400,
    body: { code: 'CROSS_APP_CONNECT_FAILED', details: { reason: 'pkce' } },
  })
  // Spent by the failed try: an intercepted code cannot be retried.
  expect((await f.authenticate({ code, verifier })).body.code).toBe('CROSS_APP_CONNECT_FAILED')
})

it('a verifier that is not RFC 7636 shaped is refused before the code is read', async () => {
  const p = await f.providerUser('pkce2@cross.test')
  const { verifier, challenge } = pkce()
  const code = (await f.authorize(p.token, { challenge })).body.code
  expect((await f.authenticate({ code, verifier: 'short' })).body.code).toBe('INVALID_PAYLOAD')
  expect((await f.authenticate({ code, verifier })).status).toBe(200)
})
