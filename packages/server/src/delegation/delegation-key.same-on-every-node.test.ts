import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { loadOrCreateDelegationKey, openSealedShare, sealShareTo } from './key.ts'

// One delegation key per database, whichever node makes it: nodes racing to
// make it on first use end with one row and the same key, so a share the
// enclave sealed through one node opens on every other. The public route
// answers that key.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('nodes racing on first use agree on one key', async () => {
  const services = t.server.services
  const nodes = await Promise.all(
    Array.from({ length: 4 }, () => loadOrCreateDelegationKey(services)),
  )
  expect(new Set(nodes.map((k) => k.keyId)).size).toBe(1)
  expect(await t.countRows('delegation_keys')).toBe(1)

  const [first, second] = nodes
  if (!first || !second) throw new Error('no key')
  const share = randomBytes(18)
  const binding = { appId: t.app.id, userId: 'did:latchkey:x', address: '0xabc' }
  const sealed = sealShareTo(first.publicKey, share, binding)
  expect(Buffer.from(openSealedShare(second, sealed, binding))).toEqual(share)
  expect(() => openSealedShare(second, sealed, { ...binding, address: '0xabd' })).toThrow()
})

it('the public route answers the stored key (no session needed)', async () => {
  const res = await t.request(routes.embeddedWalletsDelegationKey)
  const [row] = await t.db.selectFrom('delegation_keys').selectAll().execute()
  expect(res).toMatchObject({
    status: 200,
    body: { key_id: row?.key_id, public_key: row?.public_key },
  })
  expect(Buffer.from(res.body.public_key, 'base64url')).toHaveLength(65)
  expect(Buffer.from(res.body.public_key, 'base64url')[0]).toBe(4)
})
