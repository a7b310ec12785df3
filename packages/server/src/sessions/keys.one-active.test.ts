import { randomBytes } from 'node:crypto'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SecretBox } from '../crypto/secrets.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { KeyStore } from './keys.ts'

// Tracker issue 20 (two nodes, cluster.two-nodes.test.ts): nodes that start
// together on a database with no active signing key used to make one each,
// then publish different key sets. At most one key is active (migration 014).
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const active = () =>
  t.db.selectFrom('signing_keys').select('kid').where('retired_at', 'is', null).execute()

it('nodes starting together on a database without an active key end up with one, the same', async () => {
  await t.db.deleteFrom('signing_keys').execute()
  const secrets = new SecretBox(randomBytes(32))
  const nodes = [1, 2, 3].map(() => new KeyStore(t.db, secrets, t.clock.now, 3_900_000))
  await Promise.all(nodes.map((node) => node.init()))
  const rows = await active()
  expect(rows).toHaveLength(1)
  for (const node of nodes) {
    expect((await node.signingKey()).kid).toBe(rows[0]?.kid)
    expect((await node.jwks()).keys.map((k) => k.kid)).toEqual([rows[0]?.kid])
  }
})

it('a second active key is refused by the database; rotation keeps exactly one', async () => {
  const secrets = new SecretBox(randomBytes(32))
  const store = new KeyStore(t.db, secrets, t.clock.now, 3_900_000)
  const [current] = await active()
  await expect(
    t.db
      .insertInto('signing_keys')
      .values({ kid: 'x', private_jwk: 'x', public_jwk: '{}', created_at: 0, retired_at: null })
      .execute(),
  ).rejects.toThrow()
  const kid = await store.rotate()
  expect((await active()).map((r) => r.kid)).toEqual([kid])
  expect(kid).not.toBe(current?.kid)
})
