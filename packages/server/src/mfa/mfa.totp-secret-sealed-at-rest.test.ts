import { routes } from '@latchkey/protocol'
import { base32 } from '@scure/base'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Logger } from '../config.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { type MfaDevice, userWithTotp, verifyTotp } from '../test/mfa.ts'

// Security bar 45, issue 18: TOTP secrets are sealed at rest with the
// server's master key (AES-256-GCM, purpose totp-secrets, the row as
// associated data). The database holds no trace of the secret, a tampered or
// moved blob never verifies a code, and no log line carries the secret.
const logs: string[] = []
const logger: Logger = {
  info: (m) => logs.push(m),
  warn: (m) => logs.push(m),
  error: (m) => logs.push(m),
}

let t: TestInstance
let alice: { device: MfaDevice; secret: string }
let bob: { device: MfaDevice; secret: string }
beforeAll(async () => {
  t = await getTestInstance({ logger, appSettings: { mfa_methods: ['totp'] } })
  alice = await userWithTotp(t, 'alice@example.com')
  bob = await userWithTotp(t, 'bob@example.com')
})
afterAll(() => t.close())

const factorOf = (userId: string) =>
  t.db.selectFrom('mfa_factors').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow()

/** The secret in every encoding it could leak in. */
const encodings = (secret: string) => {
  const bytes = Buffer.from(base32.decode(secret))
  return [
    secret,
    secret.toLowerCase(),
    bytes.toString('hex'),
    bytes.toString('base64'),
    bytes.toString('base64url'),
  ]
}

it('the database holds the secret only sealed: no encoding of it in any MFA table', async () => {
  const dump = JSON.stringify([
    await t.db.selectFrom('mfa_factors').selectAll().execute(),
    await t.db.selectFrom('mfa_verifications').selectAll().execute(),
    await t.db.selectFrom('mfa_attempts').selectAll().execute(),
  ])
  for (const { secret } of [alice, bob])
    for (const encoded of encodings(secret)) expect(dump).not.toContain(encoded)
  const row = await factorOf(alice.device.userId)
  expect(row.secret).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
  // It opens with the server's key for its own row, to the secret the user scanned.
  const opened = t.server.services.secrets
    .decrypt(
      'totp-secrets',
      JSON.stringify(['mfa_factors', t.app.id, alice.device.userId, row.id, 'totp']),
      row.secret ?? '',
    )
    .toString('utf8')
  expect(opened).toBe(alice.secret)
})

it('a pending setup is sealed too', async () => {
  const auth = await t.login('pending@example.com', { enclaveKey: t.enclaveKey })
  const init = await t.enclaveRequest(routes.mfaTotpInit, { token: auth.token ?? '', body: {} })
  const row = await factorOf(auth.user.id)
  expect(row.enabled).toBe(0)
  for (const encoded of encodings(init.body.secret))
    expect(JSON.stringify(row)).not.toContain(encoded)
})

it("a secret moved to another user's row, or tampered with, never verifies: 500, logged by kind only", async () => {
  const before = await factorOf(bob.device.userId)
  const aliceRow = await factorOf(alice.device.userId)
  // Alice's sealed secret in Bob's row: Bob's code for Alice's secret fails to open at all.
  await t.db
    .updateTable('mfa_factors')
    .set({ secret: aliceRow.secret })
    .where('id', '=', before.id)
    .execute()
  const logStart = logs.length
  const moved = await verifyTotp(t, bob.device, alice.secret)
  expect(moved).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
  // A flipped byte in Bob's own blob.
  const parts = (before.secret ?? '').split('.')
  const data = Buffer.from(parts[2] ?? '', 'base64url')
  data[0] = (data[0] ?? 0) ^ 1
  parts[2] = data.toString('base64url')
  await t.db
    .updateTable('mfa_factors')
    .set({ secret: parts.join('.') })
    .where('id', '=', before.id)
    .execute()
  const tampered = await verifyTotp(t, bob.device, bob.secret)
  expect(tampered).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
  // Restored, Bob verifies again.
  await t.db
    .updateTable('mfa_factors')
    .set({ secret: before.secret })
    .where('id', '=', before.id)
    .execute()
  await t.db.deleteFrom('mfa_attempts').execute()
  expect((await verifyTotp(t, bob.device, bob.secret)).status).toBe(200)
  const logged = logs.slice(logStart)
  expect(logged.some((line) => line.includes('MFA secret failed to unseal'))).toBe(true)
  for (const { secret } of [alice, bob])
    for (const encoded of encodings(secret)) expect(logged.join('\n')).not.toContain(encoded)
})

it('no log line of the whole file carries a secret, in any encoding', () => {
  const all = logs.join('\n')
  for (const { secret } of [alice, bob])
    for (const encoded of encodings(secret)) expect(all).not.toContain(encoded)
})
