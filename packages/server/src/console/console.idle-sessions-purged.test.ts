import { afterAll, beforeAll, expect, it } from 'vitest'
import { purgeExpired } from '../maintenance/purge.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { consoleRequest, createAdminWithCli, sessionFrom } from './console.test-helper.ts'
import { CONSOLE_IDLE_MS } from './sessions.ts'

// The periodic purge (maintenance/purge.ts) deletes console sessions nobody
// can use any more — idle for 12 h, or of a revoked admin — and keeps every
// live one, so an abandoned sign-in does not stay in console_sessions forever.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

async function signInAs(name: string) {
  const admin = await createAdminWithCli(t, name)
  const res = await consoleRequest(t, '/login', { body: { token: admin.token } })
  return { id: admin.id, session: sessionFrom(res.headers) ?? '' }
}
const sessionsOf = (adminId: string) =>
  t.db.selectFrom('console_sessions').select('id_hash').where('admin_id', '=', adminId).execute()

it('deletes sessions idle for 12 h and those of a revoked admin, keeps live ones', async () => {
  const idle = await signInAs('idle')
  t.clock.advance(CONSOLE_IDLE_MS - 60_000)
  const active = await signInAs('active')
  const revoked = await signInAs('revoked')
  // A revocation that raced a sign-in: the credential is revoked, its session row remains.
  await t.db
    .updateTable('admin_credentials')
    .set({ revoked_at: t.clock.now() })
    .where('id', '=', revoked.id)
    .execute()

  expect((await purgeExpired(t.db, t.clock.now())).console_sessions).toBe(1)
  expect(await sessionsOf(revoked.id)).toEqual([])
  expect(await sessionsOf(idle.id)).toHaveLength(1)

  t.clock.advance(60_000)
  expect((await purgeExpired(t.db, t.clock.now())).console_sessions).toBe(1)
  expect(await sessionsOf(idle.id)).toEqual([])
  expect(await sessionsOf(active.id)).toHaveLength(1)
  // The live one still works; the purged one is signed out.
  expect((await consoleRequest(t, '/me', { session: active.session })).status).toBe(200)
  expect((await consoleRequest(t, '/me', { session: idle.session })).status).toBe(401)
})
