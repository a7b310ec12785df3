import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import { sessionIdOfOwnNewAccessToken } from './tokens.ts'

// A refresh keeps the session, and so its enclave key: the successor access
// tokens work on key routes with the same key, and with no other.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('successor access tokens keep the binding, through several refreshes', async () => {
  const login = await t.login('owner@example.com', { enclaveKey: t.enclaveKey })
  const wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: login.token ?? '',
    body: wallet,
  })
  expect(created.status).toBe(200)
  const sessionId = sessionIdOfOwnNewAccessToken(login.token ?? '')
  const other = await createTestEnclaveKey()

  let refreshToken = login.refresh_token
  for (let i = 0; i < 3; i++) {
    t.clock.advance(30 * 60_000)
    const refreshed = await t.request(routes.sessionRefresh, {
      body: { refresh_token: refreshToken },
    })
    expect(refreshed.status).toBe(200)
    const token: string = refreshed.body.token
    refreshToken = refreshed.body.refresh_token
    expect(sessionIdOfOwnNewAccessToken(token)).toBe(sessionId)
    const row = await t.db
      .selectFrom('sessions')
      .select('enclave_jkt')
      .where('id', '=', sessionId)
      .executeTakeFirstOrThrow()
    expect(row.enclave_jkt).toBe(t.enclaveKey.jkt)

    const share = { entropy_id: wallet.entropy_id }
    expect(
      await t.enclaveRequest(routes.embeddedWalletsAuthShare, { token, body: share }),
    ).toMatchObject({ status: 200, body: { auth_share: wallet.auth_share } })
    expect(
      await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
        token,
        body: share,
        enclaveKey: other,
      }),
    ).toMatchObject({ status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } })
  }
})

it('a session that logged in unbound stays unbound after a refresh', async () => {
  const login = await t.login('unbound@example.com')
  const refreshed = await t.request(routes.sessionRefresh, {
    body: { refresh_token: login.refresh_token },
  })
  expect(refreshed.status).toBe(200)
  const res = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: refreshed.body.token,
    body: hdBody(),
  })
  expect(res).toMatchObject({ status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } })
})
