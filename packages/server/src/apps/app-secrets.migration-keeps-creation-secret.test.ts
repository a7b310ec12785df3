import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import * as m019 from '../db/migrations/019_app_secrets.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { appRequest } from './app-secrets.test-helper.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('migration 019 makes the secret of every existing app its first app secret, which keeps working', async () => {
  const other = await t.createApp()
  // As before 019: no app_secrets table, the secrets only in apps.secret_hash.
  await m019.down(t.db)
  await m019.up(t.db)
  const rows = await t.db.selectFrom('app_secrets').selectAll().orderBy('app_id').execute()
  const apps = await t.db.selectFrom('apps').select(['id', 'secret_hash']).orderBy('id').execute()
  expect(rows.map((r) => [r.app_id, r.secret_hash])).toEqual(apps.map((a) => [a.id, a.secret_hash]))
  expect(rows.every((r) => r.revoked_at === null && r.last_used_at === null)).toBe(true)
  expect(rows.map((r) => r.app_id)).toContain(other.id)
  expect((await appRequest(t, routes.appUsers)).status).toBe(200)
})
