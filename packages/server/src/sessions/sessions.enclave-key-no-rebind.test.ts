import { Header, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import { sessionIdOfOwnNewAccessToken } from './tokens.ts'

// A session is bound to an enclave key once, when a login creates it, and
// never again: a later login (with another key) binds only its own new
// session, and no route — refresh included — binds or rebinds an existing
// one. A malformed key header is 400 INVALID_PAYLOAD and creates no session.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const bindingOf = async (token: string) =>
  (
    await t.db
      .selectFrom('sessions')
      .select('enclave_jkt')
      .where('id', '=', sessionIdOfOwnNewAccessToken(token))
      .executeTakeFirstOrThrow()
  ).enclave_jkt

it("a second login with another key leaves the first session's binding alone", async () => {
  const keyA = t.enclaveKey
  const keyB = await createTestEnclaveKey()
  const first = (await t.login('owner@example.com', { enclaveKey: keyA })).token ?? ''
  const second = (await t.login('owner@example.com', { enclaveKey: keyB })).token ?? ''
  expect(await bindingOf(first)).toBe(keyA.jkt)
  expect(await bindingOf(second)).toBe(keyB.jkt)

  const wallet = hdBody()
  const create = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: first,
    body: wallet,
    enclaveKey: keyA,
  })
  expect(create.status).toBe(200)
  const share = { entropy_id: wallet.entropy_id }
  const ask = (token: string, enclaveKey: typeof keyA) =>
    t.enclaveRequest(routes.embeddedWalletsAuthShare, { token, body: share, enclaveKey })
  expect((await ask(first, keyA)).status).toBe(200)
  expect((await ask(second, keyB)).status).toBe(200)
  // Key B cannot use the first session, nor key A the second.
  expect(await ask(first, keyB)).toMatchObject({
    status: 401,
    body: { code: 'ENCLAVE_PROOF_INVALID' },
  })
  expect(await ask(second, keyA)).toMatchObject({
    status: 401,
    body: { code: 'ENCLAVE_PROOF_INVALID' },
  })
  expect(await bindingOf(first)).toBe(keyA.jkt)
})

it('the key header on a route that starts no session binds nothing', async () => {
  const keyB = await createTestEnclaveKey()
  const unbound = await t.login('unbound@example.com')
  const bound = await t.login('bound@example.com', { enclaveKey: t.enclaveKey })
  const header = { [Header.enclaveKey]: keyB.jkt }
  for (const login of [unbound, bound]) {
    const token = login.token ?? ''
    const before = await bindingOf(token)
    expect((await t.request(routes.usersMe, { token, headers: header })).status).toBe(200)
    const refreshed = await t.request(routes.sessionRefresh, {
      body: { refresh_token: login.refresh_token },
      headers: header,
    })
    expect(refreshed.status).toBe(200)
    expect(await bindingOf(token)).toBe(before)
    expect(await bindingOf(refreshed.body.token)).toBe(before)
  }
  expect(
    await t.db.selectFrom('sessions').select('id').where('enclave_jkt', '=', keyB.jkt).execute(),
  ).toEqual([])
})

it('a malformed key header is 400 INVALID_PAYLOAD, and no session is made', async () => {
  const email = 'malformed@example.com'
  expect((await t.request(routes.emailInit, { body: { email } })).status).toBe(200)
  const code = await t.lastCode(email)
  const sessions = await t.countRows('sessions')
  const good = t.enclaveKey.jkt
  for (const value of [
    'short',
    `${good}=`,
    `${good.slice(0, 42)}+`,
    `${good}A`,
    `${good}, ${good}`,
    ' ',
  ]) {
    const res = await t.request(routes.emailAuthenticate, {
      body: { email, code },
      headers: { [Header.enclaveKey]: value },
    })
    expect({ value, ...res }).toMatchObject({
      value,
      status: 400,
      body: { code: 'INVALID_PAYLOAD' },
    })
    expect(await t.countRows('sessions')).toBe(sessions)
  }
  // The code was not spent: the same login with a well-formed header goes through, bound.
  const ok = await t.request(routes.emailAuthenticate, {
    body: { email, code },
    headers: { [Header.enclaveKey]: good },
  })
  expect(ok.status).toBe(200)
  expect(await bindingOf(ok.body.token)).toBe(good)
})
