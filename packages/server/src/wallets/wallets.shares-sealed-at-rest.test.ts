import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Logger } from '../config.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody, importBody, recovery } from '../test/wallets.ts'
import { canonicalAddress, WALLET_SEAL_PURPOSES, walletSecretAad } from './service.ts'

// Security bars 45 and 50: shares and the server-held recovery key are sealed
// at rest (AES-256-GCM, keys derived from the master key, the row and column
// bound as associated data); a tampered or moved blob never opens, and no log
// line carries a share or a key.
const logs: string[] = []
const logger: Logger = {
  info: (m) => logs.push(m),
  warn: (m) => logs.push(m),
  error: (m) => logs.push(m),
}

let t: TestInstance
const secrets: string[] = []
let alice: { token: string; body: ReturnType<typeof hdBody> }
let bob: { token: string; body: ReturnType<typeof hdBody> }

async function createFor(email: string, body: ReturnType<typeof hdBody>) {
  const token = (await t.login(email, { enclaveKey: t.enclaveKey })).token ?? ''
  const res = await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body })
  expect(res.status).toBe(200)
  secrets.push(body.auth_share, body.recovery.ciphertext)
  if (body.recovery.method === 'latchkey') secrets.push(body.recovery.recovery_key)
  return { token, body }
}

const row = (entropyId: string) =>
  t.db
    .selectFrom('wallet_secrets')
    .selectAll()
    .where('entropy_id', '=', canonicalAddress(entropyId))
    .executeTakeFirstOrThrow()

const setColumn = (
  entropyId: string,
  values: Partial<{
    auth_share: string
    recovery_ciphertext: string
    recovery_key: string
    user_id: string
  }>,
) =>
  t.db
    .updateTable('wallet_secrets')
    .set(values)
    .where('entropy_id', '=', canonicalAddress(entropyId))
    .execute()

const flipByte = (sealed: string, part: number) => {
  const parts = sealed.split('.')
  const bytes = Buffer.from(parts[part] ?? '', 'base64url')
  bytes[0] = (bytes[0] ?? 0) ^ 1
  parts[part] = bytes.toString('base64url')
  return parts.join('.')
}

const authShare = (token: string, entropyId: string) =>
  t.enclaveRequest(routes.embeddedWalletsAuthShare, { token, body: { entropy_id: entropyId } })
const recoveryOf = (token: string, entropyId: string) =>
  t.enclaveRequest(routes.embeddedWalletsRecovery, { token, body: { entropy_id: entropyId } })

beforeAll(async () => {
  t = await getTestInstance({ logger })
  alice = await createFor('alice@example.com', hdBody({ solana: true }))
  bob = await createFor('bob@example.com', hdBody())
})
afterAll(() => t.close())

describe('at rest', () => {
  it('rows hold sealed blobs only: no share, ciphertext or key, in any encoding', async () => {
    await createFor('carol@example.com', importBody('solana'))
    const dump = JSON.stringify([
      await t.db.selectFrom('wallet_secrets').selectAll().execute(),
      await t.db.selectFrom('linked_accounts').selectAll().execute(),
    ])
    for (const secret of secrets) {
      const bytes = Buffer.from(secret, 'base64url')
      for (const form of [secret, bytes.toString('hex'), bytes.toString('base64')])
        expect(dump).not.toContain(form)
    }
    const a = await row(alice.body.entropy_id)
    for (const sealed of [a.auth_share, a.recovery_ciphertext, a.recovery_key])
      expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/)
  })

  it('the server-held recovery key is sealed under another derived key than auth shares', async () => {
    expect(WALLET_SEAL_PURPOSES.recovery_key).not.toBe(WALLET_SEAL_PURPOSES.auth_share)
    expect(WALLET_SEAL_PURPOSES.recovery_key).not.toBe(WALLET_SEAL_PURPOSES.recovery_ciphertext)
    const a = await row(alice.body.entropy_id)
    const ref = { appId: a.app_id, userId: a.user_id, entropyId: a.entropy_id }
    const aad = walletSecretAad(ref, 'recovery_key')
    const box = t.server.services.secrets
    expect(box.decrypt('recovery-keys', aad, a.recovery_key ?? '').toString()).toBe(
      alice.body.recovery.method === 'latchkey' ? alice.body.recovery.recovery_key : '',
    )
    expect(() => box.decrypt('auth-shares', aad, a.recovery_key ?? '')).toThrow()
  })
})

describe('tampering and moving', () => {
  it('a tampered auth share gives 500 INTERNAL_ERROR, never bytes', async () => {
    const original = (await row(bob.body.entropy_id)).auth_share
    for (const part of [1, 2, 3]) {
      await setColumn(bob.body.entropy_id, { auth_share: flipByte(original, part) })
      const res = await authShare(bob.token, bob.body.entropy_id)
      expect(res).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
      expect(Object.keys(res.body).sort()).toEqual(['code', 'message'])
    }
    await setColumn(bob.body.entropy_id, { auth_share: 'garbage' })
    expect((await authShare(bob.token, bob.body.entropy_id)).status).toBe(500)
    await setColumn(bob.body.entropy_id, { auth_share: original })
    expect(await authShare(bob.token, bob.body.entropy_id)).toMatchObject({
      status: 200,
      body: { auth_share: bob.body.auth_share },
    })
  })

  it('a blob copied to another row fails to open', async () => {
    const a = await row(alice.body.entropy_id)
    const b = await row(bob.body.entropy_id)
    await setColumn(bob.body.entropy_id, { auth_share: a.auth_share })
    const res = await authShare(bob.token, bob.body.entropy_id)
    expect(res).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
    expect(JSON.stringify(res.body)).not.toContain(alice.body.auth_share)
    await setColumn(bob.body.entropy_id, { auth_share: b.auth_share })
    // The recovery key too.
    await setColumn(bob.body.entropy_id, { recovery_key: a.recovery_key ?? '' })
    expect((await recoveryOf(bob.token, bob.body.entropy_id)).status).toBe(500)
    await setColumn(bob.body.entropy_id, { recovery_key: b.recovery_key ?? '' })
    expect((await recoveryOf(bob.token, bob.body.entropy_id)).status).toBe(200)
  })

  it('a blob moved to another column of the same row fails to open', async () => {
    const b = await row(bob.body.entropy_id)
    await setColumn(bob.body.entropy_id, { auth_share: b.recovery_ciphertext })
    expect((await authShare(bob.token, bob.body.entropy_id)).status).toBe(500)
    await setColumn(bob.body.entropy_id, {
      auth_share: b.auth_share,
      recovery_ciphertext: b.auth_share,
    })
    expect((await recoveryOf(bob.token, bob.body.entropy_id)).status).toBe(500)
    await setColumn(bob.body.entropy_id, { recovery_ciphertext: b.recovery_ciphertext })
    expect((await recoveryOf(bob.token, bob.body.entropy_id)).status).toBe(200)
  })

  it('a row reassigned to another user in the database does not open for that user', async () => {
    const mallory = (await t.login('mallory@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
    const me = await t.request(routes.usersMe, { token: mallory })
    const b = await row(bob.body.entropy_id)
    await setColumn(bob.body.entropy_id, { user_id: me.body.user.id })
    const res = await authShare(mallory, bob.body.entropy_id)
    expect(res).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
    expect(JSON.stringify(res.body)).not.toContain(bob.body.auth_share)
    expect((await recoveryOf(mallory, bob.body.entropy_id)).status).toBe(500)
    await setColumn(bob.body.entropy_id, { user_id: b.user_id })
  })

  it('set-recovery reseals the new material for its row', async () => {
    const next = recovery('latchkey')
    const res = await t.enclaveRequest(routes.embeddedWalletsSetRecovery, {
      token: bob.token,
      body: { entropy_id: bob.body.entropy_id, recovery: next },
    })
    expect(res.status).toBe(200)
    if (next.method === 'latchkey') secrets.push(next.ciphertext, next.recovery_key)
    const b = await row(bob.body.entropy_id)
    expect(JSON.stringify(b)).not.toContain(next.ciphertext)
    expect(JSON.stringify(b)).not.toContain(next.method === 'latchkey' ? next.recovery_key : '')
    expect((await recoveryOf(bob.token, bob.body.entropy_id)).body.recovery).toEqual(next)
  })
})

it('no log line carries a share, a ciphertext or a key (security bar 50)', () => {
  expect(logs.some((l) => l.includes('failed to unseal'))).toBe(true)
  const all = logs.join('\n')
  for (const secret of secrets) expect(all).not.toContain(secret)
  for (const r of [alice, bob]) expect(all).not.toContain(r.body.auth_share)
})
