import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PROVIDER_CREDENTIALS_PURPOSE, providerCredentialAad } from '../apps/credentials.ts'
import { PAYMASTER_SIGNER_PROVIDER } from '../smart-wallets/paymaster-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { consoleRequest, signIn } from './console.test-helper.ts'

// The app's paymaster signer in the console (console/smart-wallet-routes.ts),
// as `apps smart-wallets paymaster-key` makes it: none at first; created once
// (asking again answers the same address); the creation audited; no answer
// carries the key or its sealed blob.
let t: TestInstance
let session: string
beforeAll(async () => {
  t = await getTestInstance()
  session = await signIn(t, 'treasurer')
})
afterAll(() => t.close())

const signerPath = (appId: string) => `/apps/${appId}/smart-wallets/paymaster-signer`
const auditRows = () =>
  t.db.selectFrom('admin_audit').selectAll().where('app_id', '=', t.app.id).execute()

it('creates the paymaster signer once, audits it, and answers only its address', async () => {
  expect((await consoleRequest(t, signerPath(t.app.id), { session })).body).toEqual({
    address: null,
  })

  t.clock.advance(1)
  const created = await consoleRequest(t, signerPath(t.app.id), { session, body: {} })
  expect(created.status).toBe(200)
  expect(Object.keys(created.body).sort()).toEqual(['address', 'created'])
  expect(created.body.created).toBe(true)
  const { address } = created.body
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)

  // The stored key is the address's key, and neither it nor its blob is in any answer.
  const row = await t.db
    .selectFrom('app_provider_credentials')
    .select(['client_id', 'client_secret'])
    .where('app_id', '=', t.app.id)
    .where('provider', '=', PAYMASTER_SIGNER_PROVIDER)
    .executeTakeFirstOrThrow()
  const key = t.server.services.secrets
    .decrypt(
      PROVIDER_CREDENTIALS_PURPOSE,
      providerCredentialAad(t.app.id, PAYMASTER_SIGNER_PROVIDER, 'client_secret'),
      row.client_secret ?? '',
    )
    .toString()
  expect(privateKeyToAccount(key as `0x${string}`).address).toBe(address)

  t.clock.advance(1)
  const again = await consoleRequest(t, signerPath(t.app.id), { session, body: {} })
  expect(again.body).toEqual({ address, created: false })
  const shown = await consoleRequest(t, signerPath(t.app.id), { session })
  expect(shown.body).toEqual({ address })
  const app = await consoleRequest(t, `/apps/${t.app.id}`, { session })
  for (const res of [created, again, shown, app]) {
    expect(res.text.toLowerCase()).not.toContain(key.slice(2).toLowerCase())
    expect(res.text).not.toContain(row.client_secret)
  }

  // One audit row: the creation, by this admin, naming the address; asking again changed nothing.
  const rows = await auditRows()
  expect(rows).toHaveLength(1)
  expect(rows[0]).toMatchObject({ action: 'app.paymaster_signer_create', target: address })
  const log = await consoleRequest(t, '/audit', { session })
  expect(log.body.data[0]).toMatchObject({
    admin_name: 'treasurer',
    app_id: t.app.id,
    target: address,
  })
})

it('each app has its own signer; an unknown app is 404', async () => {
  const other = await t.createApp()
  const mine = (await consoleRequest(t, signerPath(t.app.id), { session })).body.address
  const theirs = await consoleRequest(t, signerPath(other.id), { session, body: {} })
  expect(theirs.body.created).toBe(true)
  expect(theirs.body.address).not.toBe(mine)
  const missing = await consoleRequest(t, signerPath('nosuchapp'), { session, body: {} })
  expect(missing.status).toBe(404)
  expect(missing.body.code).toBe('APP_NOT_FOUND')
})
