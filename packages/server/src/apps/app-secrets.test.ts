import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import {
  APP_SECRET_PREFIX,
  createAppSecret,
  listAppSecrets,
  matchAppSecret,
  revokeAppSecret,
} from './app-secrets.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

describe('app secrets', () => {
  it('are 256 random bits behind the lk_sk_ prefix, and the database holds only their hash', async () => {
    const { id, secret } = await createAppSecret(t.db, t.app.id, t.clock.now())
    expect(secret.startsWith(APP_SECRET_PREFIX)).toBe(true)
    expect(Buffer.from(secret.slice(APP_SECRET_PREFIX.length), 'base64url')).toHaveLength(32)
    const rows = await t.db.selectFrom('app_secrets').selectAll().execute()
    expect(JSON.stringify(rows)).not.toContain(secret)
    expect(JSON.stringify(rows)).not.toContain(secret.slice(APP_SECRET_PREFIX.length))
    expect(await matchAppSecret(t.db, t.app.id, secret, t.clock.now())).toBe(id)
  })

  it("count the secret `apps create` printed as the app's first, listable and revocable", async () => {
    const app = await t.createApp()
    const creation = await t.db
      .selectFrom('apps')
      .select('secret_hash')
      .where('id', '=', app.id)
      .executeTakeFirstOrThrow()
    const [first, ...others] = await listAppSecrets(t.db, app.id)
    expect(others).toEqual([])
    expect(first).toMatchObject({ createdAt: app.createdAt, lastUsedAt: null, revokedAt: null })
    const row = await t.db
      .selectFrom('app_secrets')
      .select('secret_hash')
      .where('id', '=', first?.id ?? '')
      .executeTakeFirstOrThrow()
    expect(row.secret_hash).toBe(creation.secret_hash)
  })

  it('rotate: several live at once, a revoked one is refused and stays listed', async () => {
    const app = await t.createApp()
    const old = await createAppSecret(t.db, app.id, t.clock.now())
    const fresh = await createAppSecret(t.db, app.id, t.clock.now() + 1)
    expect(await matchAppSecret(t.db, app.id, old.secret, t.clock.now())).toBe(old.id)
    expect(await matchAppSecret(t.db, app.id, fresh.secret, t.clock.now())).toBe(fresh.id)
    expect(await revokeAppSecret(t.db, app.id, old.id, t.clock.now())).toBe(true)
    expect(await revokeAppSecret(t.db, app.id, old.id, t.clock.now())).toBe(false)
    expect(await matchAppSecret(t.db, app.id, old.secret, t.clock.now())).toBeNull()
    expect(await matchAppSecret(t.db, app.id, fresh.secret, t.clock.now())).toBe(fresh.id)
    const listed = await listAppSecrets(t.db, app.id)
    expect(listed.map((s) => [s.id, s.revokedAt !== null])).toEqual(
      expect.arrayContaining([
        [old.id, true],
        [fresh.id, false],
      ]),
    )
    expect(listed.find((s) => s.id === fresh.id)?.lastUsedAt).toBe(t.clock.now())
  })

  it("revoke touches only the named app's secrets", async () => {
    const other = await t.createApp()
    const { id } = await createAppSecret(t.db, t.app.id, t.clock.now())
    expect(await revokeAppSecret(t.db, other.id, id, t.clock.now())).toBe(false)
    expect((await listAppSecrets(t.db, t.app.id)).find((s) => s.id === id)?.revokedAt).toBeNull()
  })

  it('refuse an unknown app', async () => {
    await expect(createAppSecret(t.db, 'nosuchappnosuchappnosucha')).rejects.toThrow(/No app/)
    await expect(listAppSecrets(t.db, 'nosuchappnosuchappnosucha')).rejects.toThrow(/No app/)
  })
})
