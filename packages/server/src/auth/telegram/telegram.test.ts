import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppSettings } from '../../apps/service.ts'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import {
  OTHER_BOT_TOKEN,
  signLoginWidget,
  signWebAppData,
  TEST_BOT_ID,
  TEST_BOT_NAME,
  TEST_BOT_TOKEN,
} from './testing.ts'

const telegramSettings: AppSettings = {
  login_methods: { email: true, telegram: true },
  telegram_auth_config: {
    bot_id: TEST_BOT_ID,
    bot_name: TEST_BOT_NAME,
    seamless_auth_enabled: true,
  },
}

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: telegramSettings })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'telegram',
    bot_token: TEST_BOT_TOKEN,
    bot_name: TEST_BOT_NAME,
  })
})
afterAll(() => t.close())

const nowS = () => Math.floor(t.clock.now() / 1000)
let nextId = 1000
const widget = (id = nextId++, extra: Record<string, string | number> = {}) =>
  signLoginWidget({ id, first_name: 'Tg', username: `tg${id}`, auth_date: nowS(), ...extra })
const authenticate = (body: Record<string, unknown>, appId?: string) =>
  t.request(routes.telegramAuthenticate, { body, ...(appId ? { appId } : {}) })

describe('telegram login', () => {
  it('publishes telegram_auth_config (never the token) in the app config', async () => {
    const { body } = await t.request(routes.appConfig(t.app.id))
    expect(body.telegram_auth_config).toEqual({
      bot_id: TEST_BOT_ID,
      bot_name: TEST_BOT_NAME,
      link_enabled: true,
      seamless_auth_enabled: true,
    })
    expect(JSON.stringify(body)).not.toContain(TEST_BOT_TOKEN.split(':')[1])
  })

  it('keeps the bot token sealed at rest', async () => {
    const row = await t.db
      .selectFrom('app_provider_credentials')
      .selectAll()
      .where('app_id', '=', t.app.id)
      .where('provider', '=', 'telegram')
      .executeTakeFirstOrThrow()
    expect(row.client_id).toBe(TEST_BOT_NAME)
    expect(JSON.stringify(row)).not.toContain(TEST_BOT_TOKEN.split(':')[1])
  })

  it('refuses a malformed telegram_auth_config when the app is saved', async () => {
    await expect(
      t.createApp({ telegram_auth_config: { bot_id: 'not-digits', bot_name: TEST_BOT_NAME } }),
    ).rejects.toThrow(/telegram_auth_config/)
  })

  it('signs up with a Login Widget result, then logs the same user in', async () => {
    const first = await authenticate({ telegram_auth_result: widget(4001, { last_name: 'Gram' }) })
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ is_new_user: true })
    expect(first.body.user.linked_accounts).toEqual([
      expect.objectContaining({
        type: 'telegram',
        telegram_user_id: '4001',
        first_name: 'Tg',
        last_name: 'Gram',
        username: 'tg4001',
        photo_url: null,
      }),
    ])
    t.clock.advance(5_000)
    const again = await authenticate({ telegram_auth_result: widget(4001, { first_name: 'New' }) })
    expect(again.body).toMatchObject({ is_new_user: false, user: { id: first.body.user.id } })
    expect(again.body.user.linked_accounts[0].first_name).toBe('New')
  })

  it('logs in with Mini App initData (seamless auth) as the same Telegram user', async () => {
    const widgetLogin = await authenticate({ telegram_auth_result: widget(4002) })
    const initData = signWebAppData({
      user: JSON.stringify({ id: 4002, first_name: 'Tg', username: 'tg4002' }),
      auth_date: String(nowS()),
      query_id: 'AAE',
    })
    const res = await authenticate({ telegram_web_app_data: initData })
    expect(res.status).toBe(200)
    expect(res.body.user.id).toBe(widgetLogin.body.user.id)
  })

  it("answers 'Authentication failed' for a tampered, stale or other bot's payload", async () => {
    const tampered = { ...widget(4003), username: 'admin' }
    const stale = signLoginWidget({ id: 4004, auth_date: nowS() - 24 * 3600 - 1 })
    const otherBot = signLoginWidget({ id: 4005, auth_date: nowS() }, OTHER_BOT_TOKEN)
    const tamperedWebApp = signWebAppData({
      user: JSON.stringify({ id: 4006 }),
      auth_date: String(nowS()),
    }).replace('4006', '4007')
    const users = await t.countRows('users')
    for (const body of [
      { telegram_auth_result: tampered },
      { telegram_auth_result: stale },
      { telegram_auth_result: otherBot },
      { telegram_web_app_data: tamperedWebApp },
    ]) {
      const res = await authenticate(body)
      expect(res).toMatchObject({
        status: 400,
        body: { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' },
      })
    }
    expect(await t.countRows('users')).toBe(users)
  })

  it('needs exactly one payload', async () => {
    expect((await authenticate({})).body.code).toBe('INVALID_PAYLOAD')
    const both = { telegram_auth_result: widget(), telegram_web_app_data: 'a=b' }
    expect((await authenticate(both)).body.code).toBe('INVALID_PAYLOAD')
  })

  it('no-signup refuses an unknown Telegram user', async () => {
    const res = await authenticate({ telegram_auth_result: widget(4010), mode: 'no-signup' })
    expect(res).toMatchObject({ status: 404, body: { code: 'USER_DOES_NOT_EXIST' } })
  })

  it("answers 'Login with Telegram not allowed.' when the method is off or unconfigured", async () => {
    const off = await t.createApp({ ...telegramSettings, login_methods: { telegram: false } })
    await t.server.setAppProviderCredentials(off.id, {
      provider: 'telegram',
      bot_token: TEST_BOT_TOKEN,
      bot_name: TEST_BOT_NAME,
    })
    const noBot = await t.createApp(telegramSettings)
    const wrongBot = await t.createApp(telegramSettings)
    await t.server.setAppProviderCredentials(wrongBot.id, {
      provider: 'telegram',
      bot_token: OTHER_BOT_TOKEN,
      bot_name: TEST_BOT_NAME,
    })
    for (const app of [off, noBot, wrongBot]) {
      const res = await authenticate({ telegram_auth_result: widget() }, app.id)
      expect(res).toMatchObject({
        status: 403,
        body: { code: 'TELEGRAM_NOT_ALLOWED', message: 'Login with Telegram not allowed.' },
      })
    }
    const { body } = await t.request(routes.appConfig(noBot.id), { appId: noBot.id })
    expect(body.telegram_auth_config).toBeNull()
  })

  it('refuses Mini App data when seamless auth is off', async () => {
    const app = await t.createApp({
      ...telegramSettings,
      telegram_auth_config: { bot_id: TEST_BOT_ID, bot_name: TEST_BOT_NAME },
    })
    await t.server.setAppProviderCredentials(app.id, {
      provider: 'telegram',
      bot_token: TEST_BOT_TOKEN,
      bot_name: TEST_BOT_NAME,
    })
    const initData = signWebAppData({ user: JSON.stringify({ id: 1 }), auth_date: String(nowS()) })
    const res = await authenticate({ telegram_web_app_data: initData }, app.id)
    expect(res.body.code).toBe('TELEGRAM_NOT_ALLOWED')
  })
})

describe('telegram linking', () => {
  it('links, refuses a second Telegram and one owned by another user, then unlinks', async () => {
    const login = await t.login('tg-link@example.com')
    const token = login.token ?? ''
    const linked = await t.request(routes.telegramLink, {
      token,
      body: { telegram_auth_result: widget(5001) },
    })
    expect(linked.status).toBe(200)
    expect(linked.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual([
      'email',
      'telegram',
    ])
    const second = await t.request(routes.telegramLink, {
      token,
      body: { telegram_auth_result: widget(5002) },
    })
    expect(second.body.code).toBe('CANNOT_LINK_MORE_OF_TYPE')

    const other = await t.login('tg-other@example.com')
    const taken = await t.request(routes.telegramLink, {
      token: other.token ?? '',
      body: { telegram_auth_result: widget(5001) },
    })
    expect(taken.body).toMatchObject({
      code: 'ACCOUNT_ALREADY_LINKED',
      message: 'This account has already been linked to another user.',
    })

    // Logging in with the linked Telegram reaches the email user (a new payload: each works once).
    t.clock.advance(1_000)
    const viaTelegram = await authenticate({ telegram_auth_result: widget(5001) })
    expect(viaTelegram.body.user.id).toBe(login.user.id)

    const unlinked = await t.request(routes.telegramUnlink, {
      token,
      body: { telegram_user_id: '5001' },
    })
    expect(unlinked.status).toBe(200)
    expect(unlinked.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['email'])
    const gone = await t.request(routes.telegramUnlink, { token, body: { telegram_user_id: 5001 } })
    expect(gone.body.code).toBe('ACCOUNT_NOT_LINKED')
  })

  it('refuses to unlink the last login method', async () => {
    const login = await authenticate({ telegram_auth_result: widget(5100) })
    const res = await t.request(routes.telegramUnlink, {
      token: login.body.token,
      body: { telegram_user_id: '5100' },
    })
    expect(res.body.code).toBe('CANNOT_UNLINK_LAST_ACCOUNT')
  })

  it('needs a session and a valid payload to link', async () => {
    expect(
      (await t.request(routes.telegramLink, { body: { telegram_auth_result: widget() } })).status,
    ).toBe(401)
    const login = await t.login('tg-bad@example.com')
    const res = await t.request(routes.telegramLink, {
      token: login.token ?? '',
      body: { telegram_auth_result: { ...widget(5200), id: 5201 } },
    })
    expect(res.body.code).toBe('AUTHENTICATION_FAILED')
  })
})
