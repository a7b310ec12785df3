import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { anotherSession, sessionIdOf, userWithTotp } from '../test/mfa.ts'
import { adminCli, consoleRequest, createAdminWithCli, sessionFrom } from './console.test-helper.ts'

// The console's changes to a user — one session ended, MFA reset — and the
// audit log every console change writes (docs/console.md "Audit log"): who
// did it, what, on which app and target, when; newest first, with a cursor.
let t: TestInstance
let session: string
let adminId: string
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
  const admin = await createAdminWithCli(t, 'auditor')
  adminId = admin.id
  const login = await consoleRequest(t, '/login', { body: { token: admin.token } })
  session = sessionFrom(login.headers) ?? ''
})
afterAll(() => t.close())

const get = (path: string) => consoleRequest(t, path, { session })
/** A change, a millisecond after the last (the audit log orders by time). */
const change = (path: string, body: unknown = {}) => {
  t.clock.advance(1)
  return consoleRequest(t, path, { session, body })
}
const post = (path: string) => change(path)
const userPath = (id: string) => `/apps/${t.app.id}/users/${encodeURIComponent(id)}`
const me = (token: string) => t.request(routes.usersMe, { token })

it('ends one session of a user and leaves their others live', async () => {
  const first = await t.login('two-tabs@example.com')
  const second = await t.login('two-tabs@example.com')
  const sid = sessionIdOf(first.token ?? '')
  const ended = await post(`${userPath(first.user.id)}/sessions/${sid}/revoke`)
  expect(ended.body).toEqual({ revoked: true })
  expect((await me(first.token ?? '')).status).toBe(401)
  expect((await me(second.token ?? '')).status).toBe(200)
  const sessions = (await get(userPath(first.user.id))).body.sessions
  expect(sessions.map((s: { id: string; live: boolean }) => [s.id === sid, s.live]).sort()).toEqual(
    [
      [false, true],
      [true, false],
    ],
  )
  // Again: nothing left to end. Another user's session is not theirs.
  expect((await post(`${userPath(first.user.id)}/sessions/${sid}/revoke`)).body).toEqual({
    revoked: false,
  })
  const other = await t.login('someone-else@example.com')
  const foreign = await post(
    `${userPath(first.user.id)}/sessions/${sessionIdOf(other.token ?? '')}/revoke`,
  )
  expect(foreign.status).toBe(404)
  expect((await me(other.token ?? '')).status).toBe(200)
})

it('resets a user`s MFA as `users mfa-reset --yes` does: factors gone, sessions ended', async () => {
  const { device } = await userWithTotp(t, 'lost-phone@example.com')
  const other = await anotherSession(t, 'lost-phone@example.com', t.enclaveKey)
  expect((await get(userPath(device.userId))).body.user.mfa_methods).toEqual(['totp'])
  const reset = await post(`${userPath(device.userId)}/mfa-reset`)
  expect(reset.body).toEqual({ methods: ['totp'] })
  expect((await get(userPath(device.userId))).body.user.mfa_methods).toEqual([])
  expect(await t.countRows('mfa_factors')).toBe(0)
  expect((await me(device.token)).status).toBe(401)
  expect((await me(other.token)).status).toBe(401)
  // The CLI sees the same user with nothing left to reset.
  const cli = await adminCli(t, 'users', 'mfa-reset', device.userId)
  expect(cli.out).toContain('MFA methods (none); 0 live sessions ended')
  // Another app's user is not found through this app.
  const otherApp = await t.createApp()
  const elsewhere = await post(`/apps/${otherApp.id}/users/${device.userId}/mfa-reset`)
  expect(elsewhere.status).toBe(404)
})

it('writes an audit row for every console change, listed newest first with a cursor', async () => {
  const created = await change('/apps', { name: 'Audited', origins: ['https://audited.example'] })
  const appId = created.body.app.id
  await change(`/apps/${appId}/settings`, { settings: { max_users: 3, accent_color: '#010203' } })
  const victim = await t.login('to-delete@example.com')
  await post(`${userPath(victim.user.id)}/revoke-sessions`)
  await post(`${userPath(victim.user.id)}/delete`)

  const log = (await get('/audit')).body
  const actions = log.data.map((e: { action: string }) => e.action)
  expect(actions).toEqual([
    'user.delete',
    'user.sessions_revoke',
    'app.settings_update',
    'app.create',
    'user.mfa_reset',
    'user.session_revoke',
    'user.session_revoke',
  ])
  expect(log.data[2]).toEqual({
    id: expect.any(String),
    admin_id: adminId,
    admin_name: 'auditor',
    action: 'app.settings_update',
    app_id: appId,
    target: null,
    // The keys changed, never their values.
    detail: { keys: ['max_users', 'accent_color'] },
    created_at: expect.any(Number),
  })
  expect(log.data[0]).toMatchObject({ app_id: t.app.id, target: victim.user.id })
  expect(log.data[1].detail).toEqual({ revoked: 1 })
  // A refused change (404: the session is not theirs) wrote nothing.
  expect(
    log.data.filter((e: { action: string }) => e.action === 'user.session_revoke'),
  ).toHaveLength(2)
  expect(log.next_cursor).toBeNull()
  expect(await t.countRows('admin_audit')).toBe(7)
})

it('pages the audit log with a cursor', async () => {
  for (let i = 0; i < 52; i++)
    await change(`/apps/${t.app.id}/settings`, { settings: { max_users: 10 + i } })
  const first = (await get('/audit')).body
  expect(first.data).toHaveLength(50)
  const rest = (await get(`/audit?cursor=${first.next_cursor}`)).body
  expect(rest.next_cursor).toBeNull()
  const ids = [...first.data, ...rest.data].map((e: { id: string }) => e.id)
  expect(new Set(ids).size).toBe(59)
  expect((await get('/audit?cursor=nonsense')).status).toBe(400)
})
