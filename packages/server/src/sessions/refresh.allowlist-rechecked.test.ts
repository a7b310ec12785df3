import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { APP_CACHE_TTL_MS } from '../apps/cache.ts'
import { updateAppSettings } from '../apps/service.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

// Tracker issue 15, item 9: allowlist changes take effect at the next refresh
// (docs/access-control.md); a lowered user limit logs nobody out.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    purgeIntervalMs: 0,
    appSettings: {
      allowlist: {
        enabled: true,
        entries: [
          { type: 'email', value: 'kept@example.com' },
          { type: 'email', value: 'removed@example.com' },
        ],
      },
    },
  })
})
afterAll(() => t.close())

const refresh = (token: string) =>
  t.request(routes.sessionRefresh, { body: { refresh_token: token } })

/** Changes the app's settings; a running server sees it once its app cache entry ends. */
async function setSettings(patch: Record<string, unknown>) {
  await updateAppSettings(t.db, t.app.id, patch)
  t.clock.advance(APP_CACHE_TTL_MS)
}

it('a user taken off the allowlist is refused at the next refresh and the session is revoked', async () => {
  const removed = await t.login('removed@example.com')
  const kept = await t.login('kept@example.com')
  expect((await refresh(removed.refresh_token ?? '')).status).toBe(200)

  await setSettings({
    allowlist: { enabled: true, entries: [{ type: 'email', value: 'kept@example.com' }] },
  })

  const refused = await refresh(removed.refresh_token ?? '')
  // 401 INVALID_REFRESH_TOKEN: what core's session store treats as "session ended".
  expect(refused).toMatchObject({ status: 401, body: { code: 'INVALID_REFRESH_TOKEN' } })
  const session = await t.db
    .selectFrom('sessions')
    .select('revoked_at')
    .where('user_id', '=', removed.user.id)
    .executeTakeFirstOrThrow()
  expect(session.revoked_at).toBe(t.clock.now())
  expect((await t.request(routes.usersMe, { token: removed.token ?? undefined })).status).toBe(401)

  // Others on the list are not touched.
  expect((await refresh(kept.refresh_token ?? '')).status).toBe(200)
  // Back on the list, the user may log in again; the ended session stays ended.
  await setSettings({
    allowlist: {
      enabled: true,
      entries: [
        { type: 'email', value: 'kept@example.com' },
        { type: 'email', value: 'removed@example.com' },
      ],
    },
  })
  expect((await refresh(removed.refresh_token ?? '')).status).toBe(401)
  expect((await t.login('removed@example.com')).token).toEqual(expect.any(String))
})

it('turning the allowlist off lets every session refresh', async () => {
  const user = await t.login('kept@example.com')
  await setSettings({ allowlist: { enabled: false, entries: [] } })
  expect((await refresh(user.refresh_token ?? '')).status).toBe(200)
  await setSettings({
    allowlist: { enabled: true, entries: [{ type: 'email', value: 'kept@example.com' }] },
  })
})

it('a user limit lowered below the user count logs nobody out', async () => {
  const user = await t.login('kept@example.com')
  await setSettings({ max_users: 0 })
  const res = await refresh(user.refresh_token ?? '')
  expect(res.status).toBe(200)
  expect((await t.request(routes.usersMe, { token: res.body.token })).status).toBe(200)
  expect((await t.login('kept@example.com')).token).toEqual(expect.any(String))
  await setSettings({ max_users: null })
})
