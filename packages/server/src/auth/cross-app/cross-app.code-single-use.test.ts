import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CrossAppFixture, crossAppFixture, pkce } from './cross-app.fixture.ts'

let f: CrossAppFixture
beforeAll(async () => {
  f = await crossAppFixture()
})
afterAll(() => f.t.close())

it('a code logs in once; a replay, or two trades at once, get one session', async () => {
  const p = await f.providerUser('single@cross.test')
  const { verifier, challenge } = pkce()
  const code = (await f.authorize(p.token, { challenge })).body.code
  const [a, b] = await Promise.all([
    f.authenticate({ code, verifier }),
    f.authenticate({ code, verifier }),
  ])
  expect([a.status, b.status].sort()).toEqual([200, 400])
  const replay = await f.authenticate({ code, verifier })
  expect(replay).toMatchObject({
    status: 400,
    body: {
      code: 'CROSS_APP_CONNECT_FAILED',
      message: 'There was an issue connecting your Other App account. Please try again.',
    },
  })
})
