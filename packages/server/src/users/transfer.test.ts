import { routes } from '@latchkey/protocol'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppSettings } from '../apps/service.ts'
import { siweSignIn } from '../auth/siwe/testing.ts'
import {
  signLoginWidget,
  TEST_BOT_ID,
  TEST_BOT_NAME,
  TEST_BOT_TOKEN,
} from '../auth/telegram/testing.ts'
import { getTestInstance, type TestInstance, type TestResponse } from '../test/instance.ts'
import { insertAccount } from './service.ts'
import { emailLink, emailLogin, setAppSettings, smsLink, smsLogin } from './testing.ts'

/*
 * Account transfer (spec 02 "Account transfer", docs/access-control.md):
 * linking a login method that is another user's only one answers
 * ACCOUNT_TRANSFER_REQUIRED with a nonce; POST <method>/transfer moves it
 * and deletes the other user; not calling it ("No thanks") changes nothing.
 */

const SETTINGS: AppSettings = {
  login_methods: { email: true, sms: true, wallet: true, telegram: true },
  telegram_auth_config: { bot_id: TEST_BOT_ID, bot_name: TEST_BOT_NAME },
}

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: SETTINGS,
    rateLimits: { codeSendsPerIp: { limit: 10_000, windowMs: 60 * 60_000 } },
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'telegram',
    bot_token: TEST_BOT_TOKEN,
    bot_name: TEST_BOT_NAME,
  })
})
afterAll(() => t.close())

let phoneSuffix = 100
const nextPhone = () => `+1415555${String(phoneSuffix++).padStart(4, '0')}`
const newWallet = () => privateKeyToAccount(generatePrivateKey())

const post = (path: string, token: string | undefined, body: Record<string, unknown>) =>
  t.request(path, { body, ...(token ? { token } : {}) })

const refresh = (token: string) =>
  t.request(routes.sessionRefresh, { body: { refresh_token: token } })

/** Gives `userId` an embedded Ethereum wallet (secret row + wallet account), as wallet creation stores it. */
async function giveEmbeddedWallet(userId: string, address: string) {
  const now = t.clock.now()
  const entropyId = address.toLowerCase()
  await t.db
    .insertInto('wallet_secrets')
    .values({
      entropy_id: entropyId,
      app_id: t.app.id,
      user_id: userId,
      entropy_type: 'hd',
      auth_share: 'sealed',
      recovery_method: 'latchkey',
      recovery_ciphertext: 'sealed',
      recovery_key: null,
      recovery_kdf: null,
      recovery_key_id: null,
      created_at: now,
      updated_at: now,
    })
    .execute()
  await insertAccount(
    t.db,
    t.app.id,
    userId,
    {
      type: 'wallet',
      identifier: entropyId,
      data: { address, chain_type: 'ethereum', wallet_index: 0, secret_id: entropyId },
    },
    now,
  )
}

const userExists = async (id: string) =>
  (await t.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !==
  undefined

/** V signs up by email; U (an SMS user) links that email: the offer. */
async function emailOffer(email: string) {
  const v = (await emailLogin(t, email)).body
  const u = (await smsLogin(t, nextPhone())).body
  const link = await emailLink(t, u.token, email)
  return { v, u, link }
}

const nonceOf = (res: TestResponse): string => res.body.details.nonce

describe('email', () => {
  it('offers a transfer with the other user’s embedded wallet, then moves the email and deletes that user', async () => {
    const v = (await emailLogin(t, 'moving@example.com')).body
    const walletAddress = newWallet().address
    await giveEmbeddedWallet(v.user.id, walletAddress)
    const u = (await smsLogin(t, nextPhone())).body

    const link = await emailLink(t, u.token, 'Moving@Example.com')
    expect(link).toMatchObject({
      status: 400,
      body: {
        code: 'ACCOUNT_TRANSFER_REQUIRED',
        details: {
          nonce: expect.any(String),
          account: { type: 'email', display_name: 'moving@example.com' },
          other_user: {
            embedded_wallet_address: walletAddress,
            embedded_wallet_chain_type: 'ethereum',
          },
        },
      },
    })

    const res = await post(routes.emailTransfer, u.token, {
      nonce: nonceOf(link),
      email: 'MOVING@example.com',
      accountType: 'email',
    })
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(u.user.id)
    expect(res.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual([
      'phone',
      'email',
    ])

    // V is gone with its wallet secret, sessions and refresh tokens.
    expect(await userExists(v.user.id)).toBe(false)
    const secrets = await t.db
      .selectFrom('wallet_secrets')
      .select('entropy_id')
      .where('user_id', '=', v.user.id)
      .execute()
    expect(secrets).toEqual([])
    const sessions = await t.db
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', v.user.id)
      .execute()
    expect(sessions).toEqual([])
    expect(await refresh(v.refresh_token)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_REFRESH_TOKEN' },
    })
    expect((await t.request(routes.usersMe, { token: v.token })).status).toBe(401)

    // The email now logs into U.
    const login = await emailLogin(t, 'moving@example.com')
    expect(login.body).toMatchObject({ is_new_user: false, user: { id: u.user.id } })
  })

  it('"No thanks": without the transfer call both accounts stay as they were', async () => {
    const { v, u, link } = await emailOffer('declined@example.com')
    expect(link.body.code).toBe('ACCOUNT_TRANSFER_REQUIRED')
    expect(link.body.details.other_user).toEqual({
      embedded_wallet_address: null,
      embedded_wallet_chain_type: null,
    })
    const me = await t.request(routes.usersMe, { token: u.token })
    expect(me.body.user.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['phone'])
    const again = await emailLogin(t, 'declined@example.com')
    expect(again.body).toMatchObject({ is_new_user: false, user: { id: v.user.id } })
    expect((await refresh(v.refresh_token)).status).toBe(200)
  })

  it('is not offered when the other user has another login method (plain refusal)', async () => {
    const v = (await emailLogin(t, 'two-methods@example.com')).body
    expect((await smsLink(t, v.token, nextPhone())).status).toBe(200)
    const u = (await smsLogin(t, nextPhone())).body
    const link = await emailLink(t, u.token, 'two-methods@example.com')
    expect(link).toMatchObject({
      status: 400,
      body: {
        code: 'ACCOUNT_ALREADY_LINKED',
        message: 'This account has already been linked to another user.',
      },
    })
    expect(link.body.details).toBeUndefined()
  })

  it('is not offered when the caller already has an account of that type', async () => {
    await emailLogin(t, 'owned@example.com')
    const u = (await emailLogin(t, 'has-email@example.com')).body
    const link = await emailLink(t, u.token, 'owned@example.com')
    expect(link.body.code).toBe('ACCOUNT_ALREADY_LINKED')
  })

  it('refuses when the other user gained another login method after the offer', async () => {
    const { v, u, link } = await emailOffer('changed-mind@example.com')
    expect((await smsLink(t, v.token, nextPhone())).status).toBe(200)
    const res = await post(routes.emailTransfer, u.token, {
      nonce: nonceOf(link),
      email: 'changed-mind@example.com',
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'TRANSFER_NOT_ALLOWED' } })
    expect(await userExists(v.user.id)).toBe(true)
  })
})

describe('phone', () => {
  it('moves a phone number and deletes its user', async () => {
    const phone = nextPhone()
    const v = (await smsLogin(t, phone)).body
    const u = await t.login('phone-taker@example.com')
    const link = await smsLink(t, u.token ?? '', phone)
    expect(link.body).toMatchObject({
      code: 'ACCOUNT_TRANSFER_REQUIRED',
      details: { account: { type: 'phone', display_name: phone } },
    })
    const res = await post(routes.smsTransfer, u.token ?? '', {
      nonce: nonceOf(link),
      // Formatting differs; the E.164 key is what counts.
      phoneNumber: `+1 (${phone.slice(2, 5)}) ${phone.slice(5, 8)}-${phone.slice(8)}`,
    })
    expect(res.status).toBe(200)
    expect(res.body.linked_accounts).toEqual([
      expect.objectContaining({ type: 'email' }),
      expect.objectContaining({ type: 'phone', number: phone }),
    ])
    expect(await userExists(v.user.id)).toBe(false)
    expect((await refresh(v.refresh_token)).status).toBe(401)
  })
})

describe('siwe', () => {
  it('offers instead of WALLET_ADDRESS_TAKEN and needs the wallet metadata to transfer', async () => {
    const wallet = newWallet()
    const v = await siweSignIn(t, wallet, { body: { wallet_client_type: 'rainbow' } })
    expect(v.status).toBe(200)
    const u = await t.login('wallet-taker@example.com')
    const link = await siweSignIn(t, wallet, { path: routes.siweLink, token: u.token ?? '' })
    expect(link.body).toMatchObject({
      code: 'ACCOUNT_TRANSFER_REQUIRED',
      details: { account: { type: 'siwe', display_name: wallet.address } },
    })
    const nonce = nonceOf(link)

    const noMetadata = await post(routes.siweTransfer, u.token ?? '', {
      nonce,
      address: wallet.address,
    })
    expect(noMetadata).toMatchObject({
      status: 400,
      body: { code: 'TRANSFER_INPUTS_MISSING', message: 'missing account transfer inputs' },
    })

    const res = await post(routes.siweTransfer, u.token ?? '', {
      nonce,
      address: wallet.address,
      walletClientType: 'metamask',
      connectorType: 'injected',
      chainId: 'eip155:1',
    })
    expect(res.status).toBe(200)
    // The account is the one the link proved (metamask signed the link).
    expect(res.body.linked_accounts).toEqual([
      expect.objectContaining({ type: 'email' }),
      expect.objectContaining({
        type: 'wallet',
        address: wallet.address,
        chain_type: 'ethereum',
        wallet_client_type: 'metamask',
      }),
    ])
    expect(await userExists(v.body.user.id)).toBe(false)
    const login = await siweSignIn(t, wallet)
    expect(login.body.user.id).toBe(u.user.id)
  })
})

describe('telegram', () => {
  let nextId = 9100
  const nowS = () => Math.floor(t.clock.now() / 1000)
  const widget = (id: number) =>
    signLoginWidget({ id, first_name: 'Tg', username: `tg${id}`, auth_date: nowS() })

  it('moves a Telegram account and deletes its user', async () => {
    const id = nextId++
    const v = await t.request(routes.telegramAuthenticate, {
      body: { telegram_auth_result: widget(id) },
    })
    expect(v.status).toBe(200)
    const u = await t.login('tg-taker@example.com')
    const link = await t.request(routes.telegramLink, {
      token: u.token ?? '',
      body: { telegram_auth_result: widget(id) },
    })
    expect(link.body).toMatchObject({
      code: 'ACCOUNT_TRANSFER_REQUIRED',
      details: { account: { type: 'telegram', display_name: `tg${id}` } },
    })
    const res = await post(routes.telegramTransfer, u.token ?? '', {
      nonce: nonceOf(link),
      telegram_user_id: String(id),
    })
    expect(res.status).toBe(200)
    expect(res.body.linked_accounts).toEqual([
      expect.objectContaining({ type: 'email' }),
      expect.objectContaining({
        type: 'telegram',
        telegram_user_id: String(id),
        username: `tg${id}`,
      }),
    ])
    expect(await userExists(v.body.user.id)).toBe(false)
  })
})

describe('input validation (spec 02 §5)', () => {
  let token: string
  beforeAll(async () => {
    token = (await t.login('validator@example.com')).token ?? ''
  })

  it.each([
    [routes.emailTransfer, { email: 'a@b.co' }],
    [routes.emailTransfer, { nonce: 'n' }],
    [routes.smsTransfer, { nonce: 'n' }],
    [routes.oauthTransfer, { nonce: 'n', provider: 'google' }],
    [routes.oauthTransfer, { nonce: 'n', subject: 's' }],
    [routes.siweTransfer, { nonce: 'n', address: '0x52908400098527886E0F7030069857D2E4169EE7' }],
    [
      routes.siweTransfer,
      {
        nonce: 'n',
        address: '0x52908400098527886E0F7030069857D2E4169EE7',
        walletClientType: 'metamask',
        connectorType: 'injected',
      },
    ],
    [routes.siwsTransfer, { nonce: 'n' }],
    [routes.farcasterTransfer, { nonce: 'n' }],
    [routes.telegramTransfer, { nonce: '', telegram_user_id: '1' }],
    [routes.telegramTransfer, { nonce: 'n' }],
  ])('%s %j → missing account transfer inputs', async (path, body) => {
    expect(await post(path, token, body)).toMatchObject({
      status: 400,
      body: { code: 'TRANSFER_INPUTS_MISSING', message: 'missing account transfer inputs' },
    })
  })

  it.each([['custom'], ['guest'], ['passkey']])(
    'accountType %s is not transferable',
    async (type) => {
      const res = await post(routes.emailTransfer, token, {
        nonce: 'n',
        email: 'a@b.co',
        accountType: type,
      })
      expect(res).toMatchObject({
        status: 400,
        body: { code: 'TRANSFER_NOT_ALLOWED', message: 'This account cannot be transferred' },
      })
    },
  )

  it('an unknown nonce is TRANSFER_EXPIRED', async () => {
    const res = await post(routes.emailTransfer, token, { nonce: 'x'.repeat(43), email: 'a@b.co' })
    expect(res).toMatchObject({ status: 400, body: { code: 'TRANSFER_EXPIRED' } })
  })

  it('malformed fields are INVALID_PAYLOAD; the caller must be signed in', async () => {
    expect(
      (await post(routes.farcasterTransfer, token, { nonce: 'n', farcaster_id: -1 })).body.code,
    ).toBe('INVALID_PAYLOAD')
    expect(
      (await post(routes.oauthTransfer, token, { nonce: 'n', provider: 'myspace', subject: 's' }))
        .body.code,
    ).toBe('INVALID_PAYLOAD')
    expect(
      await post(routes.emailTransfer, undefined, { nonce: 'n', email: 'a@b.co' }),
    ).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  })

  it('a login method the app switched off is refused', async () => {
    const { u, link } = await emailOffer('switched-off@example.com')
    await setAppSettings(t, t.app.id, { ...SETTINGS, login_methods: { email: false, sms: true } })
    const res = await post(routes.emailTransfer, u.token, {
      nonce: nonceOf(link),
      email: 'switched-off@example.com',
    })
    await setAppSettings(t, t.app.id, SETTINGS)
    expect(res.body.code).toBe('LOGIN_METHOD_NOT_ALLOWED')
  })
})
