import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { appRequest } from '../apps/app-secrets.test-helper.ts'
import { createAppSecret } from '../apps/app-secrets.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import { smsLogin } from './testing.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { email: true, sms: true } } })
})
afterAll(() => t.close())

describe('the app-backend users API', () => {
  it('gets a user by id, the same user /users/me shows, and keeps /users/me working', async () => {
    const { token, user } = await t.login('ada@example.com')
    const me = await t.request(routes.usersMe, { token: token ?? '' })
    expect(me.status).toBe(200)
    const res = await appRequest(t, routes.appUser(user.id))
    expect(res.status).toBe(200)
    expect(res.body).toEqual(me.body.user)
    // Encoded as the SDK sends it (`:` as %3A).
    expect((await appRequest(t, routes.appUser(encodeURIComponent(user.id)))).body.id).toBe(user.id)
    const missing = await appRequest(t, routes.appUser('did:latchkey:nosuchusernosuchusernosuc'))
    expect(missing.status).toBe(404)
    expect(missing.body.code).toBe('USER_DOES_NOT_EXIST')
  })

  it('lists users oldest first, a page at a time, until next_cursor is null', async () => {
    const app = await t.createApp()
    const { secret } = await createAppSecret(t.db, app.id, t.clock.now())
    const ids: string[] = []
    for (let i = 0; i < 5; i++)
      ids.push((await t.login(`page${i}@example.com`, { appId: app.id })).user.id)
    const seen: string[] = []
    let cursor: string | null = null
    do {
      const query: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2'
      const res = await appRequest(t, `${routes.appUsers}${query}`, { appId: app.id, secret })
      expect(res.status).toBe(200)
      expect(res.body.data.length).toBeLessThanOrEqual(2)
      seen.push(...res.body.data.map((u: { id: string }) => u.id))
      cursor = res.body.next_cursor
    } while (cursor)
    expect(seen).toEqual(ids)
    for (const query of ['?limit=101', '?limit=0', '?cursor=bm9wZQ', '?what=1']) {
      const bad = await appRequest(t, `${routes.appUsers}${query}`, { appId: app.id, secret })
      expect(bad.status, query).toBe(400)
      expect(bad.body.code).toBe('INVALID_PAYLOAD')
    }
  })

  it('finds a user by email, phone, wallet address and linked account', async () => {
    const { token, user } = await t.login('grace@example.com', { enclaveKey: t.enclaveKey })
    const body = hdBody({ solana: true })
    const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
      token: token ?? '',
      body,
    })
    expect(created.status).toBe(200)
    const find = (lookup: object) => appRequest(t, routes.appUserLookup, { body: lookup })
    for (const lookup of [
      { email: 'GRACE@example.com' },
      { email: ' grace@example.com ' },
      { wallet_address: body.entropy_id.toUpperCase().replace('0X', '0x') },
      { account: { type: 'email', identifier: 'grace@example.com' } },
    ]) {
      const res = await find(lookup)
      expect(res.status, JSON.stringify(lookup)).toBe(200)
      expect(res.body.id).toBe(user.id)
    }
    const solana = body.wallets.find((w) => w.chain_type === 'solana')
    expect((await find({ wallet_address: solana?.address })).body.id).toBe(user.id)

    const phone = await smsLogin(t, '+14155550132')
    expect(phone.status).toBe(200)
    const byPhone = await find({ phone_number: '+1 (415) 555-0132' })
    expect(byPhone.body.id).toBe(phone.body.user.id)
    const byAccount = await find({ account: { type: 'phone', identifier: '14155550132' } })
    expect(byAccount.body.id).toBe(phone.body.user.id)
    expect((await find({ phone_number: '12' })).body.code).toBe('INVALID_PHONE_NUMBER')

    expect((await find({ email: 'nobody@example.com' })).body.code).toBe('USER_DOES_NOT_EXIST')
    expect((await find({ email: 'a@b.co', phone_number: '+14155550132' })).status).toBe(400)
    expect((await find({ account: { type: 'guest', identifier: 'x' } })).status).toBe(400)
  })

  it("lists a user's embedded wallets: addresses, chains and ids, never a share", async () => {
    const { token, user } = await t.login('wallets@example.com', { enclaveKey: t.enclaveKey })
    const body = hdBody({ solana: true })
    await t.enclaveRequest(routes.embeddedWalletsCreate, { token: token ?? '', body })
    const res = await appRequest(t, routes.appUserWallets(user.id))
    expect(res.status).toBe(200)
    expect(res.body.data).toHaveLength(2)
    expect(res.body.data.map((w: { address: string }) => w.address).sort()).toEqual(
      body.wallets.map((w) => w.address).sort(),
    )
    for (const wallet of res.body.data) {
      expect(Object.keys(wallet).sort()).toEqual(
        [
          'address',
          'chain_type',
          'created_at',
          'delegated',
          'entropy_id',
          'id',
          'imported',
          'recovery_method',
          'wallet_index',
        ].sort(),
      )
      expect(wallet.entropy_id).toBe(body.entropy_id)
    }
    const text = JSON.stringify(res.body)
    expect(text).not.toContain(body.auth_share)
    expect(text).not.toContain(body.recovery.ciphertext)
    expect((await appRequest(t, routes.appUserWallets('did:latchkey:none'))).status).toBe(404)
  })

  it('deletes a user through the deletion path the CLI uses: their sessions end at once', async () => {
    const { token, user } = await t.login('leaving@example.com')
    const res = await appRequest(t, routes.appUserDelete(user.id), { body: {} })
    expect(res.status).toBe(200)
    expect(res.body).toEqual({ success: true })
    expect((await t.request(routes.usersMe, { token: token ?? '' })).status).toBe(401)
    expect((await appRequest(t, routes.appUser(user.id))).status).toBe(404)
    const again = await appRequest(t, routes.appUserDelete(user.id), { body: {} })
    expect(again.status).toBe(404)
    expect(again.body.code).toBe('USER_DOES_NOT_EXIST')
  })

  it('is in the OpenAPI document, under the app secret (HTTP Basic)', async () => {
    const doc = (await t.request(routes.openapi, { appId: null })).body
    expect(doc.components.securitySchemes.app).toEqual({ type: 'http', scheme: 'basic' })
    for (const [path, method] of [
      [routes.appUsers, 'get'],
      [routes.appUserLookup, 'post'],
      [routes.appUser('{user_id}'), 'get'],
      [routes.appUserWallets('{user_id}'), 'get'],
      [routes.appUserDelete('{user_id}'), 'post'],
    ] as const) {
      expect(doc.paths[path]?.[method]?.security, `${method} ${path}`).toEqual([{ app: [] }])
      expect(doc.paths[path][method].parameters).toContainEqual(
        expect.objectContaining({ name: 'latchkey-app-id', in: 'header' }),
      )
    }
  })
})
