import { routes, SIGN_IN_NONCE_TTL_MS } from '@latchkey/protocol'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../../test/instance.ts'
import { insertAccount } from '../../users/service.ts'
import { SIGN_IN_INITS_PER_IP } from './nonces.ts'
import {
  failureReason,
  postSiwe,
  siweMessage,
  siweNonce,
  siweSignIn,
  WALLET_APP_SETTINGS,
} from './testing.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: WALLET_APP_SETTINGS })
})
afterAll(() => t.close())

const newAccount = () => privateKeyToAccount(generatePrivateKey())

describe('SIWE login', () => {
  it('issues a 128-bit alphanumeric nonce that expires after SIGN_IN_NONCE_TTL_MS', async () => {
    const account = newAccount()
    const res = await t.request(routes.siweInit, {
      body: { address: account.address.toLowerCase() },
      origin: TEST_ORIGIN,
    })
    expect(res.status).toBe(200)
    expect(res.body.nonce).toMatch(/^[0-9a-f]{32}$/)
    expect(res.body.address).toBe(account.address)
    expect(res.body.expires_at).toBe(t.clock.now() + SIGN_IN_NONCE_TTL_MS)
    const row = await t.db
      .selectFrom('sign_in_nonces')
      .selectAll()
      .where('nonce', '=', res.body.nonce)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({
      app_id: t.app.id,
      chain_type: 'ethereum',
      address: account.address.toLowerCase(),
      sign_in_input: null,
      used_at: null,
    })
  })

  it('signs up with an EOA signature, then logs the same user in', async () => {
    const account = newAccount()
    const first = await siweSignIn(t, account, { body: { chain_id: 'eip155:1' } })
    expect(first.status).toBe(200)
    expect(first.body.is_new_user).toBe(true)
    expect(first.body.user.linked_accounts).toEqual([
      expect.objectContaining({
        type: 'wallet',
        address: account.address,
        chain_type: 'ethereum',
        chain_id: 'eip155:1',
        wallet_client_type: 'metamask',
        connector_type: 'injected',
        wallet_index: null,
        imported: false,
        delegated: false,
      }),
    ])
    t.clock.advance(5_000)
    const again = await siweSignIn(t, account, {
      fields: { chainId: 8453 },
      body: { wallet_client_type: 'rainbow', connector_type: 'wallet_connect_v2' },
    })
    expect(again.body).toMatchObject({ is_new_user: false, user: { id: first.body.user.id } })
    expect(again.body.user.linked_accounts[0]).toMatchObject({
      chain_id: 'eip155:8453',
      wallet_client_type: 'rainbow',
      connector_type: 'wallet_connect_v2',
    })
    const row = await t.db
      .selectFrom('linked_accounts')
      .selectAll()
      .where('identifier', '=', account.address.toLowerCase())
      .executeTakeFirstOrThrow()
    expect(row.type).toBe('siwe')
    expect(Number(row.latest_verified_at)).toBe(t.clock.now())
  })

  it("answers 'Could not log in with wallet' for a signature by another key", async () => {
    const account = newAccount()
    const nonce = await siweNonce(t, account.address)
    const message = siweMessage(t, account.address, nonce)
    const signature = await newAccount().signMessage({ message })
    const res = await postSiwe(t, { message, signature })
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'WALLET_LOGIN_FAILED',
        message: 'Could not log in with wallet',
        details: { reason: 'invalid_signature' },
      },
    })
  })

  it('two first logins of one address at once reach one user', async () => {
    const account = newAccount()
    const attempts = await Promise.all([siweSignIn(t, account), siweSignIn(t, account)])
    expect(attempts.map((r) => r.status)).toEqual([200, 200])
    expect(attempts[0]?.body.user.id).toBe(attempts[1]?.body.user.id)
    expect(attempts.filter((r) => r.body.is_new_user)).toHaveLength(1)
  })

  it('no-signup refuses an unknown address', async () => {
    const res = await siweSignIn(t, newAccount(), { body: { mode: 'no-signup' } })
    expect(res).toMatchObject({ status: 404, body: { code: 'USER_DOES_NOT_EXIST' } })
  })

  it('refuses every call when the app has wallet login off', async () => {
    const off = await t.createApp({ login_methods: { email: true } })
    const account = newAccount()
    const init = await t.request(routes.siweInit, {
      body: { address: account.address },
      origin: TEST_ORIGIN,
      appId: off.id,
    })
    expect(init).toMatchObject({ status: 403, body: { code: 'LOGIN_METHOD_NOT_ALLOWED' } })
    const auth = await postSiwe(t, { message: 'x', signature: '0x00' }, { appId: off.id })
    expect(auth.body.code).toBe('LOGIN_METHOD_NOT_ALLOWED')
  })

  it('an embedded wallet address can not log in', async () => {
    const account = newAccount()
    const owner = await t.login('embedded-siwe@example.com')
    await insertAccount(
      t.db,
      t.app.id,
      owner.user.id,
      {
        type: 'wallet',
        identifier: account.address.toLowerCase(),
        data: { address: account.address, chain_type: 'ethereum' },
      },
      t.clock.now(),
    )
    const res = await siweSignIn(t, account)
    expect(failureReason(res)).toBe('embedded_wallet')
  })

  it('deletes expired nonces when new ones are issued', async () => {
    const stale = await siweNonce(t, newAccount().address)
    t.clock.advance(SIGN_IN_NONCE_TTL_MS + 1)
    await siweNonce(t, newAccount().address)
    const row = await t.db
      .selectFrom('sign_in_nonces')
      .select('nonce')
      .where('nonce', '=', stale)
      .executeTakeFirst()
    expect(row).toBeUndefined()
  })
})

describe('SIWE linking', () => {
  it('links, refreshes, refuses a second wallet and a taken one, then unlinks', async () => {
    const login = await t.login('siwe-link@example.com')
    const token = login.token ?? ''
    const wallet = newAccount()
    const linked = await siweSignIn(t, wallet, { path: routes.siweLink, token })
    expect(linked.status).toBe(200)
    expect(linked.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual([
      'email',
      'wallet',
    ])
    const relinked = await siweSignIn(t, wallet, { path: routes.siweLink, token })
    expect(relinked.status).toBe(200)
    expect(relinked.body.linked_accounts).toHaveLength(2)

    const second = await siweSignIn(t, newAccount(), { path: routes.siweLink, token })
    expect(second).toMatchObject({
      status: 400,
      body: {
        code: 'WALLET_LINK_LIMIT',
        message: 'Unable to link',
      },
    })

    const other = await t.login('siwe-other@example.com')
    const taken = await siweSignIn(t, wallet, { path: routes.siweLink, token: other.token ?? '' })
    expect(taken).toMatchObject({
      status: 400,
      body: { code: 'WALLET_ADDRESS_TAKEN', message: 'User already exists for this address' },
    })

    // Logging in with the linked wallet reaches the email user.
    const viaWallet = await siweSignIn(t, wallet)
    expect(viaWallet.body.user.id).toBe(login.user.id)

    const unlinked = await t.request(routes.siweUnlink, {
      token,
      body: { address: wallet.address },
    })
    expect(unlinked.status).toBe(200)
    expect(unlinked.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['email'])
    const gone = await t.request(routes.siweUnlink, { token, body: { address: wallet.address } })
    expect(gone).toMatchObject({ status: 404, body: { code: 'ACCOUNT_NOT_LINKED' } })
  })

  it('refuses to unlink the last login method (embedded wallets do not count)', async () => {
    const wallet = newAccount()
    const login = await siweSignIn(t, wallet)
    await insertAccount(
      t.db,
      t.app.id,
      login.body.user.id,
      {
        type: 'wallet',
        identifier: newAccount().address.toLowerCase(),
        data: { chain_type: 'ethereum' },
      },
      t.clock.now(),
    )
    const res = await t.request(routes.siweUnlink, {
      token: login.body.token,
      body: { address: wallet.address.toLowerCase() },
    })
    expect(res.body.code).toBe('CANNOT_UNLINK_LAST_ACCOUNT')
  })

  it('an embedded wallet address can not be linked', async () => {
    const account = newAccount()
    const holder = await t.login('embedded-holder@example.com')
    await insertAccount(
      t.db,
      t.app.id,
      holder.user.id,
      { type: 'wallet', identifier: account.address.toLowerCase(), data: {} },
      t.clock.now(),
    )
    const res = await siweSignIn(t, account, { path: routes.siweLink, token: holder.token ?? '' })
    expect(failureReason(res)).toBe('embedded_wallet')
  })

  it('needs a session to link', async () => {
    const res = await siweSignIn(t, newAccount(), { path: routes.siweLink })
    expect(res.status).toBe(401)
  })
})

describe('SIWE init rate limit', () => {
  it('caps nonces per IP with TOO_MANY_REQUESTS', async () => {
    const app = await t.createApp(WALLET_APP_SETTINGS)
    const address = newAccount().address
    const init = () =>
      t.request(routes.siweInit, { body: { address }, origin: TEST_ORIGIN, appId: app.id })
    for (let i = 0; i < SIGN_IN_INITS_PER_IP.limit; i++) expect((await init()).status).toBe(200)
    expect(await init()).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
    t.clock.advance(SIGN_IN_INITS_PER_IP.windowMs + 1)
    expect((await init()).status).toBe(200)
  })
})
