import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Logger } from '../config.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { delegate, rpc, setPolicy, userWithRealWallet, walletIdOf } from './testing.ts'

// The delegated device share is sealed again at rest (AES-256-GCM under the
// master key, purpose delegated-shares), bound to its row and column: the
// database never holds it in clear, a blob moved to another user's row does
// not open (500, no signature), and no log line carries it. The delegation
// key's private half is sealed too.
const logs: string[] = []
const logger: Logger = {
  info: (m) => logs.push(m),
  warn: (m) => logs.push(m),
  error: (m) => logs.push(m),
}
let t: TestInstance
let alice: Awaited<ReturnType<typeof userWithRealWallet>>
let bob: Awaited<ReturnType<typeof userWithRealWallet>>
beforeAll(async () => {
  t = await getTestInstance({ logger })
  alice = await userWithRealWallet(t, 'alice@example.com')
  bob = await userWithRealWallet(t, 'bob@example.com')
  expect((await delegate(t, alice)).status).toBe(200)
  expect((await delegate(t, bob)).status).toBe(200)
  await setPolicy(t)
})
afterAll(() => t.close())

const rows = () => t.db.selectFrom('wallet_delegations').selectAll().execute()

it('the stored share is not the share, in any encoding', async () => {
  const dump = JSON.stringify(await rows())
  for (const user of [alice, bob]) {
    const share = Buffer.from(user.wallet.deviceShare)
    for (const text of [
      share.toString('base64url'),
      share.toString('base64'),
      share.toString('hex'),
    ])
      expect(dump).not.toContain(text)
  }
  for (const row of await rows()) expect(row.device_share).toMatch(/^v1\./)
})

it("the delegation key's private half is sealed", async () => {
  const [key] = await t.db.selectFrom('delegation_keys').selectAll().execute()
  expect(key?.private_key).toMatch(/^v1\./)
  // Not PKCS#8 DER in base64 (which starts with MIG…).
  expect(key?.private_key.includes('MIG')).toBe(false)
})

it("a share moved to another user's row does not open, and nothing is signed", async () => {
  const all = await rows()
  const aliceRow = all.find((r) => r.user_id === alice.userId)
  const bobRow = all.find((r) => r.user_id === bob.userId)
  if (!aliceRow || !bobRow) throw new Error('rows missing')
  await t.db
    .updateTable('wallet_delegations')
    .set({ device_share: aliceRow.device_share })
    .where('user_id', '=', bob.userId)
    .where('address', '=', bobRow.address)
    .execute()
  const walletId = await walletIdOf(t, bob.userId, bob.wallet.ethereum)
  const res = await rpc(t, walletId, { method: 'personal_sign', params: { message: 'hi' } })
  expect(res).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
  expect(JSON.stringify(res.body)).not.toContain('signature')
})

it('no log line carries a share', () => {
  const text = logs.join('\n')
  for (const user of [alice, bob])
    expect(text).not.toContain(Buffer.from(user.wallet.deviceShare).toString('base64url'))
  expect(text).toContain('delegated share failed to unseal')
})

it('the user still reads the wallet as delegated', async () => {
  const me = await t.request(routes.usersMe, { token: alice.token })
  const wallet = me.body.user.linked_accounts.find(
    (a: { address?: string }) => a.address === alice.wallet.ethereum,
  )
  expect(wallet.delegated).toBe(true)
})
