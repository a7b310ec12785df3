import { isAddress } from 'viem'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { PROVIDER_CREDENTIALS_PURPOSE, providerCredentialAad } from '../apps/credentials.ts'
import { runCli } from '../cli.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { getPaymasterSigner, PAYMASTER_SIGNER_PROVIDER } from './paymaster-key.ts'

// The app's paymaster signer is sealed at rest like every app credential:
// `latchkey apps smart-wallets paymaster-key` creates it once and prints only
// its address; the row holds the address and an AES-256-GCM blob, never the
// key in any encoding; the blob opens only under its purpose and the app's
// associated data, so a blob copied to another app is refused; and the CLI
// run again keeps the same key.
const MASTER_KEY = Buffer.alloc(32, 7).toString('base64')
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ masterKey: Buffer.from(MASTER_KEY, 'base64') })
})
afterAll(() => t.close())

async function cli(...argv: string[]) {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, {
    db: t.db,
    env: { LATCHKEY_MASTER_KEY: MASTER_KEY },
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

const rowOf = (appId: string) =>
  t.db
    .selectFrom('app_provider_credentials')
    .selectAll()
    .where('app_id', '=', appId)
    .where('provider', '=', PAYMASTER_SIGNER_PROVIDER)
    .executeTakeFirstOrThrow()

it('is created once by the CLI, which prints only its address', async () => {
  const first = await cli('apps', 'smart-wallets', 'paymaster-key', t.app.id, '--json')
  expect(first.code).toBe(0)
  const { address, created } = JSON.parse(first.out)
  expect(isAddress(address)).toBe(true)
  expect(created).toBe(true)
  const again = await cli('apps', 'smart-wallets', 'paymaster-key', t.app.id, '--json')
  expect(JSON.parse(again.out)).toEqual({ address, created: false })
  const plain = await cli('apps', 'smart-wallets', 'paymaster-key', t.app.id)
  expect(plain.out).toContain(`Paymaster signer: ${address}`)
  expect((await rowOf(t.app.id)).client_id).toBe(address)
  expect((await cli('apps', 'smart-wallets', 'paymaster-key', 'nosuchapp')).code).toBe(1)
})

it('the row holds no private key, in any encoding, and opens only under its purpose and app', async () => {
  const signer = await getPaymasterSigner(t.server.services, t.app.id)
  if (!signer) throw new Error('no signer')
  const row = await rowOf(t.app.id)
  // The key itself, as the signer would export it: recover it from the sealed blob.
  const aad = providerCredentialAad(t.app.id, PAYMASTER_SIGNER_PROVIDER, 'client_secret')
  const box = t.server.services.secrets
  const key = box.decrypt(PROVIDER_CREDENTIALS_PURPOSE, aad, row.client_secret ?? '').toString()
  expect(key).toMatch(/^0x[0-9a-f]{64}$/)
  const bytes = Buffer.from(key.slice(2), 'hex')
  const dump = JSON.stringify(
    await t.db.selectFrom('app_provider_credentials').selectAll().execute(),
  )
  for (const form of [
    key.slice(2),
    key.slice(2).toUpperCase(),
    bytes.toString('base64'),
    bytes.toString('base64url'),
    Buffer.from(key).toString('base64'),
  ])
    expect(dump).not.toContain(form)
  expect(row.client_secret).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
  expect(() => box.decrypt('auth-shares', aad, row.client_secret ?? '')).toThrow()

  // Copied to another app, the blob does not open there.
  const other = await t.createApp({})
  await t.db
    .insertInto('app_provider_credentials')
    .values({ ...row, app_id: other.id })
    .execute()
  await expect(getPaymasterSigner(t.server.services, other.id)).rejects.toThrow(
    `the paymaster signer of app ${other.id} failed to unseal`,
  )
})

it('is not one of the credentials `apps credentials` sets or deletes', async () => {
  const res = await cli('apps', 'credentials', 'delete', t.app.id, PAYMASTER_SIGNER_PROVIDER)
  expect(res.code).toBe(1)
  expect(await getPaymasterSigner(t.server.services, t.app.id)).toBeDefined()
})
