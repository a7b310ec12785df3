import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppSecret, revokeAppSecret } from '../apps/app-secrets.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { type Listening, listen } from '../test/listen.ts'
import { hdBody } from '../test/wallets.ts'
import { signWebhook } from '../webhooks/signature.ts'
import { createLatchkeyServerClient, LatchkeyApiError, verifyWebhook } from './index.ts'

// The SDK against a real server over HTTP (SQLite, or PostgreSQL with DATABASE_URL).
let t: TestInstance
let http: Listening
let url: string
beforeAll(async () => {
  t = await getTestInstance()
  http = await listen(t.server.app.fetch)
  url = `http://127.0.0.1:${http.port}`
})
afterAll(async () => {
  await http?.close()
  await t?.close()
})

const client = (appSecret = t.appSecret) =>
  createLatchkeyServerClient({ url, appId: t.app.id, appSecret, issuer: 'http://latchkey.test' })

describe('createLatchkeyServerClient', () => {
  it('reads users by id, email, account and wallet address, and lists their wallets', async () => {
    const { token, user } = await t.login('sdk@example.com', { enclaveKey: t.enclaveKey })
    const body = hdBody({ solana: true })
    expect(
      (await t.enclaveRequest(routes.embeddedWalletsCreate, { token: token ?? '', body })).status,
    ).toBe(200)
    const latchkey = client()
    const byId = await latchkey.getUser(user.id)
    expect(byId?.id).toBe(user.id)
    expect(byId?.linked_accounts.map((a) => a.type)).toContain('email')
    expect((await latchkey.getUserByEmail('SDK@example.com'))?.id).toBe(user.id)
    expect((await latchkey.getUserByWalletAddress(body.entropy_id))?.id).toBe(user.id)
    expect(
      (await latchkey.getUserByAccount({ type: 'email', identifier: 'sdk@example.com' }))?.id,
    ).toBe(user.id)
    expect(await latchkey.getUser('did:latchkey:nosuchusernosuchusernosuc')).toBeNull()
    expect(await latchkey.getUserByEmail('nobody@example.com')).toBeNull()
    const wallets = await latchkey.getUserWallets(user.id)
    expect(wallets.map((w) => w.chain_type).sort()).toEqual(['ethereum', 'solana'])
  })

  it('pages through every user', async () => {
    const latchkey = client()
    for (let i = 0; i < 3; i++) await t.login(`page${i}@example.com`)
    const firstPage = await latchkey.listUsers({ limit: 2 })
    expect(firstPage.data).toHaveLength(2)
    expect(firstPage.next_cursor).toEqual(expect.any(String))
    const all: string[] = []
    for await (const user of latchkey.allUsers({ pageSize: 2 })) all.push(user.id)
    const listed = await latchkey.listUsers()
    expect(all).toEqual(listed.data.map((u) => u.id))
    expect(all.length).toBeGreaterThanOrEqual(4)
  })

  it('deletes a user; a second delete is a typed USER_DOES_NOT_EXIST', async () => {
    const { user } = await t.login('gone@example.com')
    const latchkey = client()
    await latchkey.deleteUser(user.id)
    expect(await latchkey.getUser(user.id)).toBeNull()
    const error = await latchkey.deleteUser(user.id).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LatchkeyApiError)
    expect(error).toMatchObject({ code: 'USER_DOES_NOT_EXIST', status: 404 })
  })

  it('verifies an access token with the keys the server publishes (its JWKS)', async () => {
    const { token, user } = await t.login('token@example.com')
    const latchkey = client()
    const currentDate = new Date(t.clock.now())
    const claims = await latchkey.verifyAccessToken(token ?? '', { currentDate })
    expect(claims).toMatchObject({ sub: user.id, aud: t.app.id })
    // Another app's token (another audience) is refused.
    const other = await t.createApp()
    const { token: foreign } = await t.login('token@example.com', { appId: other.id })
    await expect(latchkey.verifyAccessToken(foreign ?? '', { currentDate })).rejects.toThrow()
    // Expired.
    const later = new Date(t.clock.now() + 2 * 3600_000)
    await expect(latchkey.verifyAccessToken(token ?? '', { currentDate: later })).rejects.toThrow()
  })

  it('turns refusals into typed errors with the server code: wrong and revoked secrets', async () => {
    const wrong = await client('lk_sk_wrong')
      .listUsers()
      .catch((e: unknown) => e)
    expect(wrong).toBeInstanceOf(LatchkeyApiError)
    expect(wrong).toMatchObject({ code: 'INVALID_APP_SECRET', status: 401 })
    const { id, secret } = await createAppSecret(t.db, t.app.id, t.clock.now())
    expect((await client(secret).listUsers()).data).toBeDefined()
    await revokeAppSecret(t.db, t.app.id, id, t.clock.now())
    await expect(client(secret).listUsers()).rejects.toMatchObject({ code: 'INVALID_APP_SECRET' })
    const unreachable = createLatchkeyServerClient({
      url: 'http://127.0.0.1:1',
      appId: t.app.id,
      appSecret: t.appSecret,
    })
    await expect(unreachable.getUser('x')).rejects.toMatchObject({
      code: 'NETWORK_ERROR',
      status: 0,
    })
  })

  it('re-exports the webhook verifier', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`
    const body = JSON.stringify({ type: 'user.created', data: {}, timestamp: 1 })
    const now = 1_900_000_000
    const headers = {
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(now),
      'webhook-signature': signWebhook(secret, 'msg_1', now, body),
    }
    expect(verifyWebhook(secret, headers, body, { now: now * 1000 }).type).toBe('user.created')
  })
})
