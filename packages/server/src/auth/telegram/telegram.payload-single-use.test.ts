import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppSettings } from '../../apps/service.ts'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import {
  signLoginWidget,
  signWebAppData,
  TEST_BOT_ID,
  TEST_BOT_NAME,
  TEST_BOT_TOKEN,
} from './testing.ts'
import { TELEGRAM_MAX_AUTH_AGE_S } from './verify.ts'

// A signed Telegram payload (Login Widget result or Mini App initData) logs
// in or links once: the same signature presented again is refused, also when
// two requests race. Spent records are swept once the auth_date is stale.
const settings: AppSettings = {
  login_methods: { email: true, telegram: true },
  telegram_auth_config: {
    bot_id: TEST_BOT_ID,
    bot_name: TEST_BOT_NAME,
    seamless_auth_enabled: true,
  },
}
const replayed = {
  status: 400,
  body: {
    code: 'AUTHENTICATION_FAILED',
    message: 'Authentication failed',
    details: { reason: 'replayed' },
  },
}

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: settings,
    rateLimits: { telegramAuthPerIp: { limit: 1_000, windowMs: 60_000 } },
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'telegram',
    bot_token: TEST_BOT_TOKEN,
    bot_name: TEST_BOT_NAME,
  })
})
afterAll(() => t.close())

const nowS = () => Math.floor(t.clock.now() / 1000)
let nextId = 7000
const widget = (id = nextId++) =>
  signLoginWidget({ id, first_name: 'Once', username: `once${id}`, auth_date: nowS() })
const initData = (id = nextId++) =>
  signWebAppData({
    user: JSON.stringify({ id, first_name: 'Mini' }),
    auth_date: String(nowS()),
    query_id: `q${id}`,
  })
const authenticate = (body: Record<string, unknown>, appId?: string) =>
  t.request(routes.telegramAuthenticate, { body, ...(appId ? { appId } : {}) })
const sessionsOf = async (userId: string) =>
  (await t.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).length

describe('a Login Widget result works once', () => {
  it('the second use is refused and starts no session', async () => {
    const payload = widget()
    const first = await authenticate({ telegram_auth_result: payload })
    expect(first.status).toBe(200)
    t.clock.advance(1_000)
    expect(await authenticate({ telegram_auth_result: payload })).toMatchObject(replayed)
    expect(await sessionsOf(first.body.user.id)).toBe(1)
  })

  it('the same signature written in upper case is the same payload', async () => {
    const payload = widget()
    expect((await authenticate({ telegram_auth_result: payload })).status).toBe(200)
    const upper = { ...payload, hash: String(payload.hash).toUpperCase() }
    expect(await authenticate({ telegram_auth_result: upper })).toMatchObject(replayed)
  })

  it('a new payload of the same Telegram user logs in again', async () => {
    const id = nextId++
    const first = await authenticate({ telegram_auth_result: widget(id) })
    t.clock.advance(1_000)
    const second = await authenticate({ telegram_auth_result: widget(id) })
    expect(second.status).toBe(200)
    expect(second.body.user.id).toBe(first.body.user.id)
  })

  it('a payload spent on login cannot link, nor log in to another app of the same bot', async () => {
    const payload = widget()
    expect((await authenticate({ telegram_auth_result: payload })).status).toBe(200)
    const other = await t.createApp(settings)
    await t.server.setAppProviderCredentials(other.id, {
      provider: 'telegram',
      bot_token: TEST_BOT_TOKEN,
      bot_name: TEST_BOT_NAME,
    })
    expect(await authenticate({ telegram_auth_result: payload }, other.id)).toMatchObject(replayed)
    const login = await t.login('once-link@example.com')
    const link = await t.request(routes.telegramLink, {
      token: login.token ?? '',
      body: { telegram_auth_result: payload },
    })
    expect(link).toMatchObject(replayed)
  })

  it('a payload spent on a link cannot log in', async () => {
    const login = await t.login('once-linked@example.com')
    const payload = widget()
    const link = await t.request(routes.telegramLink, {
      token: login.token ?? '',
      body: { telegram_auth_result: payload },
    })
    expect(link.status).toBe(200)
    expect(await authenticate({ telegram_auth_result: payload })).toMatchObject(replayed)
  })
})

describe('Mini App initData works once', () => {
  it('the second use is refused, also with its fields in another order', async () => {
    const data = initData()
    expect((await authenticate({ telegram_web_app_data: data })).status).toBe(200)
    expect(await authenticate({ telegram_web_app_data: data })).toMatchObject(replayed)
    const reordered = new URLSearchParams([...new URLSearchParams(data)].reverse()).toString()
    expect(reordered).not.toBe(data)
    expect(await authenticate({ telegram_web_app_data: reordered })).toMatchObject(replayed)
  })
})

describe('racing requests', () => {
  it('one payload sent 8 times at once: one session, seven refusals', async () => {
    const payload = widget()
    const users = await t.countRows('users')
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => authenticate({ telegram_auth_result: payload })),
    )
    const ok = answers.filter((a) => a.status === 200)
    expect(ok).toHaveLength(1)
    for (const answer of answers.filter((a) => a.status !== 200))
      expect(answer).toMatchObject(replayed)
    expect(await t.countRows('users')).toBe(users + 1)
    expect(await sessionsOf(ok[0]?.body.user.id)).toBe(1)
  })

  it('one initData sent 8 times at once: one session', async () => {
    const data = initData()
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => authenticate({ telegram_web_app_data: data })),
    )
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1)
    expect(answers.filter((a) => a.body?.details?.reason === 'replayed')).toHaveLength(7)
  })
})

describe('spent records', () => {
  it('keep only a digest of the signature, until the auth_date is stale', async () => {
    const payload = widget()
    expect((await authenticate({ telegram_auth_result: payload })).status).toBe(200)
    const rows = await t.db.selectFrom('telegram_payloads').selectAll().execute()
    expect(JSON.stringify(rows)).not.toContain(String(payload.hash))
    const expiries = rows.map((r) => Number(r.expires_at))
    expect(expiries).toContain((Number(payload.auth_date) + TELEGRAM_MAX_AUTH_AGE_S + 1) * 1000)
  })

  it('are swept once stale, and the stale payload stays refused', async () => {
    const payload = widget()
    expect((await authenticate({ telegram_auth_result: payload })).status).toBe(200)
    const before = await t.countRows('telegram_payloads')
    expect(before).toBeGreaterThan(1)
    // Past every auth_date's 24 h and the sweep margin; the next spend sweeps.
    t.clock.advance((TELEGRAM_MAX_AUTH_AGE_S + 1) * 1000 + 5 * 60_000 + 1)
    expect((await authenticate({ telegram_auth_result: widget() })).status).toBe(200)
    expect(await t.countRows('telegram_payloads')).toBe(1)
    expect(await authenticate({ telegram_auth_result: payload })).toMatchObject({
      status: 400,
      body: { code: 'AUTHENTICATION_FAILED', details: { reason: 'stale' } },
    })
  })
})
