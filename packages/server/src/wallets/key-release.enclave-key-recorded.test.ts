import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createTestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

// Each key release records the thumbprint of the enclave key whose proof it
// answered (the session's), so the user's key activity tells devices apart.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it("a release row carries the session's enclave key thumbprint, per device", async () => {
  const laptop = t.enclaveKey
  const phone = await createTestEnclaveKey()
  const onLaptop = await t.login('owner@example.com', { enclaveKey: laptop })
  const onPhone = await t.login('owner@example.com', { enclaveKey: phone })
  const wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: onLaptop.token ?? '',
    body: wallet,
    enclaveKey: laptop,
  })
  expect(created.status).toBe(200)
  const body = { entropy_id: wallet.entropy_id }
  const released = [
    await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
      token: onLaptop.token ?? '',
      body,
      enclaveKey: laptop,
    }),
    await t.enclaveRequest(routes.embeddedWalletsRecovery, {
      token: onPhone.token ?? '',
      body,
      enclaveKey: phone,
    }),
  ]
  expect(released.map((r) => r.status)).toEqual([200, 200])

  const rows = await t.db
    .selectFrom('key_releases')
    .select(['kind', 'enclave_key_thumbprint'])
    .where('user_id', '=', onLaptop.user.id)
    .orderBy('kind')
    .execute()
  expect(rows).toEqual([
    { kind: 'auth_share', enclave_key_thumbprint: laptop.jkt },
    { kind: 'recovery', enclave_key_thumbprint: phone.jkt },
  ])
  // And the user's key activity shows them.
  const activity = await t.request(routes.embeddedWalletsKeyActivity, {
    token: onPhone.token ?? '',
  })
  expect(
    activity.body.data
      .map((r: { enclave_key_thumbprint: string }) => r.enclave_key_thumbprint)
      .sort(),
  ).toEqual([laptop.jkt, phone.jkt].sort())
})
