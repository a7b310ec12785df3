import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { consoleRequest, signIn } from './console.test-helper.ts'
import { CONSOLE_IDLE_MS } from './sessions.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const appPath = () => `/apps/${t.app.id}`
const userPath = () => `${appPath()}/users/${encodeURIComponent('did:latchkey:nobody')}`

it('no cookie → 401 on every console call but sign-in', async () => {
  const calls: Array<[string, unknown?]> = [
    ['/me'],
    ['/apps'],
    [appPath()],
    [`${appPath()}/users`],
    [userPath()],
    ['/logout', {}],
    ['/apps', { name: 'X', origins: ['https://x.example'] }],
    [`${appPath()}/settings`, { settings: { max_users: 3 } }],
    [`${userPath()}/revoke-sessions`, {}],
    [`${userPath()}/delete`, {}],
  ]
  for (const [path, body] of calls) {
    const res = await consoleRequest(t, path, { body })
    expect(res.status, path).toBe(401)
    expect(res.body.code).toBe('UNAUTHORIZED')
  }
  expect((await consoleRequest(t, '/me', { session: 'not-a-session' })).status).toBe(401)
})

it('a session ends 12 hours after its last use, and on sign-out', async () => {
  const session = await signIn(t)
  t.clock.advance(CONSOLE_IDLE_MS - 60_000)
  expect((await consoleRequest(t, '/me', { session })).status).toBe(200)
  t.clock.advance(CONSOLE_IDLE_MS - 60_000)
  expect((await consoleRequest(t, '/me', { session })).status).toBe(200)
  t.clock.advance(CONSOLE_IDLE_MS)
  expect((await consoleRequest(t, '/me', { session })).status).toBe(401)

  const next = await signIn(t, 'second')
  expect((await consoleRequest(t, '/logout', { session: next, body: {} })).status).toBe(200)
  expect((await consoleRequest(t, '/me', { session: next })).status).toBe(401)
})
