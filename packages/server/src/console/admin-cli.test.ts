import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { adminCli } from './console.test-helper.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('admin create prints a token once; only a salted scrypt hash is stored', async () => {
  const text = await adminCli(t, 'admin', 'create', 'alice')
  expect(text.code).toBe(0)
  const token = /Admin token: (\S+)/.exec(text.out)?.[1] ?? ''
  expect(token).toMatch(/^lk_admin_[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/)
  const json = JSON.parse((await adminCli(t, 'admin', 'create', 'bob', '--json')).out)
  expect(json).toEqual({
    id: expect.any(String),
    name: 'bob',
    token: expect.stringMatching(/^lk_admin_/),
    created_at: expect.any(String),
  })
  const rows = await t.db.selectFrom('admin_credentials').selectAll().execute()
  expect(rows).toHaveLength(2)
  const [a, b] = rows.map((r) => r.secret_hash)
  expect(a).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{86}$/)
  // Per-credential salts.
  expect(a?.split('$')[4]).not.toBe(b?.split('$')[4])
  expect(JSON.stringify(rows)).not.toContain(token.split('.')[1])
  expect((await adminCli(t, 'admin', 'create', '  ')).code).toBe(1)
})

it('admin list shows ids, names and times, never a token; admin revoke marks it revoked', async () => {
  const { id, token } = JSON.parse((await adminCli(t, 'admin', 'create', 'carol', '--json')).out)
  expect((await adminCli(t, 'admin', 'revoke', id)).out).toContain(`Revoked admin ${id}`)
  const listed = JSON.parse((await adminCli(t, 'admin', 'list', '--json')).out) as Array<
    Record<string, string | null>
  >
  const carol = listed.find((row) => row.id === id)
  expect(carol).toEqual({
    id,
    name: 'carol',
    created_at: expect.any(String),
    last_used_at: null,
    revoked_at: expect.any(String),
  })
  const text = (await adminCli(t, 'admin', 'list')).out
  expect(text).toContain(`${id}  carol`)
  expect(text).not.toContain(token)
  expect((await adminCli(t, 'admin', 'revoke', 'no-such-admin')).code).toBe(1)
})
