import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../cli.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { appRequest } from './app-secrets.test-helper.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

async function cli(...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, {
    db: t.db,
    env: {},
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

it('apps secret create prints a new secret once; list shows ids and times, never a secret', async () => {
  const created = await cli('apps', 'secret', 'create', t.app.id, '--json')
  expect(created.code).toBe(0)
  const { id, secret } = JSON.parse(created.out)
  expect(secret).toMatch(/^lk_sk_[A-Za-z0-9_-]{43}$/)
  expect((await appRequest(t, routes.appUsers, { secret })).status).toBe(200)

  const listed = await cli('apps', 'secret', 'list', t.app.id, '--json')
  const rows = JSON.parse(listed.out) as Array<Record<string, string | null>>
  expect(rows.map((r) => r.id)).toContain(id)
  expect(rows).toHaveLength(2) // the secret of `apps create`, and this one
  expect(rows.find((r) => r.id === id)?.last_used_at).toEqual(expect.any(String))
  for (const row of rows)
    expect(Object.keys(row).sort()).toEqual(['created_at', 'id', 'last_used_at', 'revoked_at'])
  const text = (await cli('apps', 'secret', 'list', t.app.id)).out
  expect(text).not.toContain(secret)
  expect(text).not.toContain(t.appSecret)
  expect(listed.out).not.toContain(secret)
})

it('apps secret revoke refuses the secret from then on; an unknown id is exit 1', async () => {
  const { id, secret } = JSON.parse((await cli('apps', 'secret', 'create', t.app.id, '--json')).out)
  const revoked = await cli('apps', 'secret', 'revoke', t.app.id, id)
  expect(revoked.code).toBe(0)
  expect(revoked.out).toContain(`Revoked secret ${id}`)
  expect((await appRequest(t, routes.appUsers, { secret })).body.code).toBe('INVALID_APP_SECRET')
  expect((await cli('apps', 'secret', 'list', t.app.id)).out).toContain(`${id}  created`)
  const again = await cli('apps', 'secret', 'revoke', t.app.id, id)
  expect(again.code).toBe(1)
  expect(again.err).toContain('has no live secret')
  expect((await cli('apps', 'secret', 'create', 'nosuchappnosuchappnosucha')).code).toBe(1)
})

it("an id that starts with '-' (made before ids stopped doing so) is taken after '--'", async () => {
  const asOption = await cli('apps', 'secret', 'revoke', t.app.id, '-abc')
  expect(asOption.code).toBe(1)
  expect(asOption.err).toContain("An argument that starts with '-' goes after '--'.")
  const afterDashes = await cli('apps', 'secret', 'revoke', t.app.id, '--', '-abc')
  expect(afterDashes.code).toBe(1)
  expect(afterDashes.err).toContain('has no live secret -abc')
})
