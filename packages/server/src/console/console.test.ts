import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import { adminCli, consoleRequest, signIn } from './console.test-helper.ts'

let t: TestInstance
let session: string
beforeAll(async () => {
  t = await getTestInstance()
  session = await signIn(t)
})
afterAll(() => t.close())

const get = (path: string) => consoleRequest(t, path, { session })
const post = (path: string, body: unknown) => consoleRequest(t, path, { session, body })
const userPath = (id: string) => `/apps/${t.app.id}/users/${encodeURIComponent(id)}`

it('lists apps and creates one as `apps create` does (the secret is not shown)', async () => {
  const created = await post('/apps', { name: ' Shop ', origins: ['https://shop.example/'] })
  expect(created.status).toBe(201)
  expect(created.body.app).toEqual({
    id: expect.stringMatching(/^[a-z0-9]{25}$/),
    name: 'Shop',
    origins: ['https://shop.example'],
    created_at: expect.any(Number),
  })
  const listed = (await get('/apps')).body.apps.map((a: { id: string }) => a.id)
  expect(listed).toEqual([t.app.id, created.body.app.id])
  const cli = await adminCli(t, 'apps', 'list', '--json')
  expect(JSON.parse(cli.out).map((a: { id: string }) => a.id)).toEqual(listed)

  const bad = await post('/apps', { name: 'Bad', origins: ['https://bad.example/path'] })
  expect(bad.status).toBe(400)
  expect(bad.body.message).toBe(
    'An origin has no path, query or credentials: https://bad.example/path',
  )
  expect((await post('/apps', { name: 'No origins', origins: [] })).status).toBe(400)
})

it('reads and merges settings with the CLI`s validation and its messages', async () => {
  const changed = await post(`/apps/${t.app.id}/settings`, {
    settings: { max_users: 5, mfa_methods: ['totp'], accent_color: '#112233' },
  })
  expect(changed.status).toBe(200)
  expect(changed.body.settings).toMatchObject({ max_users: 5, mfa_methods: ['totp'] })
  const cli = await adminCli(t, 'apps', 'settings', t.app.id)
  expect(JSON.parse(cli.out)).toEqual(changed.body.settings)
  expect((await get(`/apps/${t.app.id}`)).body.app.settings).toEqual(changed.body.settings)
  // The app's public config follows at once on this node.
  expect((await t.request(routes.appConfig(t.app.id))).body.accent_color).toBe('#112233')

  for (const settings of [{ mfa_methods: ['fax'] }, { no_such_setting: 1 }]) {
    const refused = await post(`/apps/${t.app.id}/settings`, { settings })
    const viaCli = await adminCli(
      t,
      'apps',
      'settings',
      t.app.id,
      '--set',
      JSON.stringify(settings),
    )
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('INVALID_PAYLOAD')
    expect(viaCli.err).toBe(`Error: ${refused.body.message}`)
  }
  // null removes a key.
  const removed = await post(`/apps/${t.app.id}/settings`, { settings: { max_users: null } })
  expect(removed.body.settings.max_users).toBeUndefined()
  expect((await get('/apps/aaaaaaaaaaaaaaaaaaaaaaaaa')).body.code).toBe('APP_NOT_FOUND')
})

it('finds users by email, id and wallet address; shows accounts, wallets and sessions', async () => {
  const auth = await t.login('ada@example.com', { enclaveKey: t.enclaveKey })
  const body = hdBody()
  const wallet = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: auth.token ?? '',
    body,
  })
  expect(wallet.status).toBe(200)
  const address = body.entropy_id
  for (const q of ['ada@example.com', auth.user.id, address]) {
    const found = await get(`/apps/${t.app.id}/users?q=${encodeURIComponent(q)}`)
    expect(
      found.body.users.map((u: { id: string }) => u.id),
      q,
    ).toEqual([auth.user.id])
  }
  // A part of the address finds it too (docs/console.md "Users").
  const part = address.slice(5, 17).toUpperCase()
  expect((await get(`/apps/${t.app.id}/users?q=${part}`)).body.users).toHaveLength(1)
  expect((await get(`/apps/${t.app.id}/users?q=nobody%40example.com`)).body.users).toEqual([])
  expect((await get(`/apps/${t.app.id}/users`)).body.users.length).toBeGreaterThan(0)

  const detail = (await get(userPath(auth.user.id))).body
  expect(detail.user.linked_accounts.map((a: { type: string }) => a.type)).toContain('email')
  expect(detail.wallets.map((w: { address: string }) => w.address)).toEqual([address])
  expect(detail.sessions).toEqual([expect.objectContaining({ live: true, revoked_at: null })])
  // Another app's user is not there.
  const other = await t.createApp()
  expect((await get(`/apps/${other.id}/users/${encodeURIComponent(auth.user.id)}`)).status).toBe(
    404,
  )
})

it('revokes a user`s sessions (their token is refused at once) and deletes a user', async () => {
  const auth = await t.login('bob@example.com')
  expect((await t.request(routes.usersMe, { token: auth.token ?? '' })).status).toBe(200)
  const revoked = await post(`${userPath(auth.user.id)}/revoke-sessions`, {})
  expect(revoked.body).toEqual({ revoked: 1 })
  expect((await t.request(routes.usersMe, { token: auth.token ?? '' })).status).toBe(401)
  expect((await get(userPath(auth.user.id))).body.sessions[0].live).toBe(false)

  expect((await post(`${userPath(auth.user.id)}/delete`, {})).body).toEqual({ success: true })
  expect((await get(userPath(auth.user.id))).body.code).toBe('USER_DOES_NOT_EXIST')
  expect((await post(`${userPath(auth.user.id)}/delete`, {})).status).toBe(404)
  expect((await adminCli(t, 'users', 'delete', auth.user.id)).err).toBe(`No user ${auth.user.id}`)
})

it('validates every payload (zod): unknown fields and wrong types are 400', async () => {
  for (const [path, body] of [
    ['/apps', { name: 'X', origins: ['https://x.example'], secret: 'mine' }],
    [`/apps/${t.app.id}/settings`, { settings: 'max_users=3' }],
    [`/apps/${t.app.id}/settings`, { max_users: 3 }],
    ['/logout', { everywhere: true }],
  ] as const) {
    const res = await post(path, body)
    expect(res.status, path).toBe(400)
    expect(res.body.code).toBe('INVALID_PAYLOAD')
  }
})
