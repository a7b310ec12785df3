import { afterAll, beforeAll, expect, it } from 'vitest'
import { type CrossAppFixture, crossAppFixture, pkce } from './cross-app.fixture.ts'

let f: CrossAppFixture
beforeAll(async () => {
  f = await crossAppFixture()
})
afterAll(() => f.t.close())

it('neither the code nor the transact token is stored, only keyed hashes', async () => {
  const p = await f.providerUser('hashed@cross.test')
  const { verifier, challenge } = pkce()
  const code = (await f.authorize(p.token, { challenge })).body.code as string
  const login = await f.authenticate({ code, verifier })
  const token = login.body.cross_app.token as string
  const codes = await f.t.db.selectFrom('cross_app_codes').selectAll().execute()
  const tokens = await f.t.db.selectFrom('cross_app_tokens').selectAll().execute()
  expect(codes).toHaveLength(1)
  expect(tokens).toHaveLength(1)
  const stored = JSON.stringify([codes, tokens])
  expect(stored).not.toContain(code)
  expect(stored).not.toContain(token)
  expect(codes[0]?.code_hash).toMatch(/^[A-Za-z0-9_-]{43}$/)
  expect(tokens[0]?.token_hash).toMatch(/^[A-Za-z0-9_-]{43}$/)
})
