import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sha256 } from '../ids.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// A refresh claims its token first and checks the session after, in one
// transaction (sessions/rotate.ts): every refusal must undo the claim, so a
// token refused for its session or app is left exactly as it was.
const DAY = 24 * 60 * 60_000
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ purgeIntervalMs: 0 })
})
afterAll(() => t.close())

const refresh = (token: string, appId?: string) =>
  t.request(routes.sessionRefresh, {
    body: { refresh_token: token },
    ...(appId ? { appId } : {}),
  })

/** The token's row, and how many refresh tokens its session has. */
async function stateOf(token: string) {
  const row = await t.db
    .selectFrom('refresh_tokens')
    .select(['session_id', 'rotated_at', 'replaced_by', 'successor'])
    .where('token_hash', '=', sha256(token))
    .executeTakeFirstOrThrow()
  const family = await t.db
    .selectFrom('refresh_tokens')
    .select('token_hash')
    .where('session_id', '=', row.session_id)
    .execute()
  return { row, familySize: family.length }
}

const refused = { status: 401, body: { code: 'INVALID_REFRESH_TOKEN' } }

it('a fresh token presented to another app is refused, left unrotated, and still works in its own app', async () => {
  const other = await t.createApp()
  const token = (await t.login('other-app@example.com')).refresh_token ?? ''
  const before = await stateOf(token)
  expect(await refresh(token, other.id)).toMatchObject(refused)
  expect(await stateOf(token)).toEqual(before)
  expect(before.row.rotated_at).toBeNull()
  expect((await refresh(token)).status).toBe(200)
})

it('a fresh token of a logged-out session is refused and left unrotated', async () => {
  const login = await t.login('logged-out@example.com')
  const token = login.refresh_token ?? ''
  const before = await stateOf(token)
  const logout = await t.request(routes.sessionLogout, { token: login.token ?? '', body: {} })
  expect(logout.status).toBe(200)
  expect(await refresh(token)).toMatchObject(refused)
  expect(await stateOf(token)).toEqual(before)
})

it('a fresh token of an idle session is refused and left unrotated', async () => {
  const token = (await t.login('idle-undone@example.com')).refresh_token ?? ''
  const before = await stateOf(token)
  t.clock.advance(8 * DAY)
  expect(await refresh(token)).toMatchObject(refused)
  expect(await stateOf(token)).toEqual(before)
})
