import { afterAll, beforeAll, expect, it } from 'vitest'
import { getAppProviderCredentials } from '../apps/credentials.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { consoleRequest, signIn } from './console.test-helper.ts'

// The credentials beyond sign-in in the console (console/credential-routes.ts):
// Google Drive and iCloud backups, Turnstile, MoonPay, Coinbase Onramp and the
// Farcaster signer, stored as `apps credentials set` stores them: validated by
// the same schemas, sealed at rest, the secret write-only (no answer carries
// it or its sealed blob), a change without a secret keeping the stored one, a
// refused value named by field with nothing stored, and every change audited.
let t: TestInstance
let session: string
beforeAll(async () => {
  t = await getTestInstance()
  session = await signIn(t, 'ops')
})
afterAll(() => t.close())

const DRIVE_SECRET = 'GOCSPX-drive-secret-0123456789'
const CLOUDKIT_TOKEN = 'cloudkit-token-0123456789abcdef'
const TURNSTILE_SECRET = '0x4AAAAAAA-turnstile-secret-0123'
const MOONPAY_SECRET = 'sk_test_moonpaysecret0123456789'
const CDP_SECRET = Buffer.alloc(64, 7).toString('base64')
const CUSTODY_KEY = `0x${'ab'.repeat(32)}`
const SECRETS = [
  DRIVE_SECRET,
  CLOUDKIT_TOKEN,
  TURNSTILE_SECRET,
  MOONPAY_SECRET,
  CDP_SECRET,
  CUSTODY_KEY,
]

const SECRET_FIELDS = ['client_secret', 'api_token', 'secret_key', 'api_key_secret', 'custody_key']

const url = () => `/apps/${t.app.id}/sign-in-credentials`
const store = () => ({ db: t.db, secrets: t.server.services.secrets })
/** POST one change, a millisecond after the last (the audit log is read in order). */
const set = (body: Record<string, string>) => {
  t.clock.advance(1)
  return consoleRequest(t, url(), { session, body })
}
const audited = async () =>
  (
    await t.db
      .selectFrom('admin_audit')
      .select(['action', 'target', 'detail'])
      .orderBy('created_at')
      .execute()
  ).map((row) => [row.action, row.target, JSON.parse(row.detail)])

it('sets each provider; answers and lists only the public halves; secrets sealed at rest', async () => {
  const answers = [
    await set({
      provider: 'google-drive',
      client_id: 'drive.apps.example',
      client_secret: DRIVE_SECRET,
    }),
    await set({
      provider: 'icloud',
      container_id: 'iCloud.com.example.app',
      environment: 'production',
      api_token: CLOUDKIT_TOKEN,
    }),
    await set({ provider: 'turnstile', secret_key: TURNSTILE_SECRET }),
    await set({ provider: 'moonpay', secret_key: ` ${MOONPAY_SECRET}\n` }),
    await set({
      provider: 'coinbase-onramp',
      api_key_name: 'organizations/org-1/apiKeys/key-1',
      api_key_secret: CDP_SECRET,
    }),
    await set({ provider: 'farcaster-signer', request_fid: '12345', custody_key: CUSTODY_KEY }),
  ]
  expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200])
  const publicHalves = [
    { provider: 'coinbase-onramp', api_key_name: 'organizations/org-1/apiKeys/key-1' },
    { provider: 'farcaster-signer', request_fid: '12345' },
    { provider: 'google-drive', client_id: 'drive.apps.example' },
    { provider: 'icloud', container_id: 'iCloud.com.example.app', environment: 'production' },
    { provider: 'moonpay' },
    { provider: 'turnstile' },
  ]
  expect(answers.map((res) => res.body)).toEqual([2, 3, 5, 4, 0, 1].map((i) => publicHalves[i]))
  const listed = await consoleRequest(t, url(), { session })
  expect(listed.body).toEqual({ credentials: publicHalves })

  // Stored as the CLI stores them (the MoonPay key trimmed as `--secret-key-env` reads it).
  expect(await getAppProviderCredentials(store(), t.app.id, 'icloud')).toEqual({
    provider: 'icloud',
    container_id: 'iCloud.com.example.app',
    environment: 'production',
    api_token: CLOUDKIT_TOKEN,
  })
  expect((await getAppProviderCredentials(store(), t.app.id, 'moonpay'))?.secret_key).toBe(
    MOONPAY_SECRET,
  )
  expect(await getAppProviderCredentials(store(), t.app.id, 'farcaster-signer')).toEqual({
    provider: 'farcaster-signer',
    request_fid: '12345',
    custody_key: CUSTODY_KEY,
  })

  // Sealed at rest; neither the secrets nor their blobs are in any answer.
  const blobs = (
    await t.db
      .selectFrom('app_provider_credentials')
      .select('client_secret')
      .where('app_id', '=', t.app.id)
      .execute()
  ).map((row) => String(row.client_secret))
  expect(blobs).toHaveLength(6)
  const app = await consoleRequest(t, `/apps/${t.app.id}`, { session })
  const log = await consoleRequest(t, '/audit', { session })
  for (const res of [...answers, listed, app, log])
    for (const secret of [...SECRETS, ...blobs]) expect(res.text).not.toContain(secret)
  for (const blob of blobs) for (const secret of SECRETS) expect(blob).not.toContain(secret)
})

it('a change without a secret keeps the stored one', async () => {
  const moved = await set({
    provider: 'icloud',
    container_id: 'iCloud.com.example.other',
    environment: 'development',
  })
  expect(moved.status).toBe(200)
  expect(await getAppProviderCredentials(store(), t.app.id, 'icloud')).toEqual({
    provider: 'icloud',
    container_id: 'iCloud.com.example.other',
    environment: 'development',
    api_token: CLOUDKIT_TOKEN,
  })
  expect((await set({ provider: 'farcaster-signer', request_fid: '777' })).status).toBe(200)
  expect(await getAppProviderCredentials(store(), t.app.id, 'farcaster-signer')).toEqual({
    provider: 'farcaster-signer',
    request_fid: '777',
    custody_key: CUSTODY_KEY,
  })
})

it('refuses a bad value with a clear message, never echoing it, storing and auditing nothing', async () => {
  const before = await audited()
  const rows = await t.db.selectFrom('app_provider_credentials').selectAll().execute()
  const refused: Array<[Record<string, string>, string]> = [
    [
      { provider: 'moonpay', secret_key: 'pk_live_not-a-secret-key' },
      'Invalid moonpay credentials: secret_key: secret_key must look like sk_live_… or sk_test_…',
    ],
    [
      { provider: 'farcaster-signer', request_fid: '12345', custody_key: 'my dog is called rex' },
      'Invalid farcaster-signer credentials: custody_key: custody_key must be a 0x private key (64 hex digits) or a 12–24 word mnemonic',
    ],
    [
      { provider: 'coinbase-onramp', api_key_name: 'key-1', api_key_secret: 'no-key-here-at-all' },
      'Invalid coinbase-onramp credentials: api_key_secret: api_key_secret must be the CDP key secret: an EC private key (PEM) or an Ed25519 key (base64)',
    ],
    [
      { provider: 'google-drive', client_id: 'drive.apps.example', client_secret: 'has a space' },
      'Invalid google-drive credentials: client_secret: client_secret must be printable ASCII without spaces',
    ],
    [
      { provider: 'icloud', container_id: 'iCloud.com.example.app', environment: 'staging' },
      'The environment is not valid.',
    ],
    [{ provider: 'turnstile' }, 'secret_key is needed: the app has no Turnstile secret key yet'],
    [
      { provider: 'coinbase-onramp', api_key_name: 'key-1' },
      'api_key_secret is needed: the app has no Coinbase Onramp API key yet',
    ],
    [
      { provider: 'turnstile', secret_key: 'turnstile-unused-0123', extra: 'field' },
      'The request is not valid.',
    ],
  ]
  // Turnstile and Coinbase are stored: remove them first to see "none stored yet".
  for (const provider of ['turnstile', 'coinbase-onramp'])
    await t.db
      .deleteFrom('app_provider_credentials')
      .where('app_id', '=', t.app.id)
      .where('provider', '=', provider)
      .execute()
  for (const [body, message] of refused) {
    const res = await set(body)
    expect(res.status, JSON.stringify(body)).toBe(400)
    expect(res.body).toMatchObject({ code: 'INVALID_PAYLOAD', message })
    for (const key of SECRET_FIELDS) if (body[key]) expect(res.text).not.toContain(body[key])
  }
  expect(await audited()).toEqual(before)
  const after = await t.db.selectFrom('app_provider_credentials').selectAll().execute()
  expect(after).toEqual(rows.filter((r) => !['turnstile', 'coinbase-onramp'].includes(r.provider)))
})

it('every change is audited: the provider and whether a secret changed, never a value', async () => {
  expect(await audited()).toEqual([
    ['app.credentials_set', 'google-drive', { secret_changed: true }],
    ['app.credentials_set', 'icloud', { secret_changed: true }],
    ['app.credentials_set', 'turnstile', { secret_changed: true }],
    ['app.credentials_set', 'moonpay', { secret_changed: true }],
    ['app.credentials_set', 'coinbase-onramp', { secret_changed: true }],
    ['app.credentials_set', 'farcaster-signer', { secret_changed: true }],
    ['app.credentials_set', 'icloud', { secret_changed: false }],
    ['app.credentials_set', 'farcaster-signer', { secret_changed: false }],
  ])
})
