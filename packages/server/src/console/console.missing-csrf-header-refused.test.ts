import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { consoleRequest, createAdminWithCli, signIn } from './console.test-helper.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('a missing CSRF header → 403 on every change, before anything is done', async () => {
  const session = await signIn(t)
  const user = (await t.login('csrf@example.com')).user
  const userPath = `/apps/${t.app.id}/users/${encodeURIComponent(user.id)}`
  const changes: Array<[string, unknown]> = [
    ['/apps', { name: 'X', origins: ['https://x.example'] }],
    [`/apps/${t.app.id}/settings`, { settings: { max_users: 3 } }],
    [`${userPath}/revoke-sessions`, {}],
    [`${userPath}/delete`, {}],
    ['/logout', {}],
  ]
  for (const [path, body] of changes) {
    const res = await consoleRequest(t, path, { session, body, csrf: false })
    expect(res.status, path).toBe(403)
    expect(res.body.code).toBe('ORIGIN_NOT_ALLOWED')
    expect(res.body.message).toContain('x-latchkey-console')
  }
  // Nothing happened: the user, their session, the settings and the console session are all there.
  expect((await consoleRequest(t, userPath, { session })).body.sessions[0].live).toBe(true)
  expect(
    (await consoleRequest(t, `/apps/${t.app.id}`, { session })).body.app.settings.max_users,
  ).toBeUndefined()
  const { token } = await createAdminWithCli(t, 'formless')
  expect((await consoleRequest(t, '/login', { body: { token }, csrf: false })).status).toBe(403)
})
