import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { getRecentLoginMethod } from '../recent-login.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json } from '../test/fake-server.ts'
import {
  createTelegramFlow,
  readTelegramReturn,
  redirectToTelegram,
  stripTelegramReturn,
  takeTelegramRedirect,
  takeTelegramReturn,
  telegramLoginUrl,
} from './telegram.ts'

function setup(handler: Parameters<typeof createFakeFetch>[0]) {
  const fake = createFakeFetch(handler)
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {}, maxRetries: 0 },
  })
  return { client, calls: fake.calls }
}
const exp = Math.floor(Date.now() / 1000) + 3600
const hash = 'a'.repeat(64)

describe('Telegram return parameters', () => {
  it("reads the widget's redirect parameters and strips them, keeping the rest", () => {
    const href = `https://app.test/login?x=1&id=42&first_name=Ada&username=ada&photo_url=https%3A%2F%2Ft.me%2Fa.jpg&auth_date=1700000000&hash=${hash}#top`
    expect(readTelegramReturn(href)).toEqual({
      telegramAuthResult: {
        id: 42,
        first_name: 'Ada',
        username: 'ada',
        photo_url: 'https://t.me/a.jpg',
        auth_date: 1700000000,
        hash,
      },
    })
    expect(stripTelegramReturn(href)).toBe('https://app.test/login?x=1#top')
  })

  it('reads the login page #tgAuthResult fragment', () => {
    const result = { id: 7, first_name: 'Zoë', auth_date: 1700000000, hash }
    const bytes = new TextEncoder().encode(JSON.stringify(result))
    const b64 = btoa(String.fromCharCode(...bytes)).replace(/=+$/, '')
    const href = `https://app.test/?a=b#tgAuthResult=${b64}`
    expect(readTelegramReturn(href)).toEqual({ telegramAuthResult: result })
    expect(stripTelegramReturn(href)).toBe('https://app.test/?a=b')
  })

  it("reads a Mini App's tgWebAppData launch parameter", () => {
    const initData = 'query_id=AAE&user=%7B%22id%22%3A1%7D&auth_date=1700000000&hash=abc'
    const href = `https://app.test/#tgWebAppData=${encodeURIComponent(initData)}&tgWebAppVersion=7.0&tgWebAppPlatform=ios`
    expect(readTelegramReturn(href)).toEqual({ telegramWebAppData: initData })
    expect(stripTelegramReturn(href)).toBe('https://app.test/')
  })

  it('ignores unrelated URLs (an id without hash is not a return)', () => {
    expect(readTelegramReturn('https://app.test/?id=3')).toBeNull()
    expect(stripTelegramReturn('https://app.test/?id=3')).toBe('https://app.test/?id=3')
  })

  it('takeTelegramReturn replaces the address without the parameters', () => {
    history.replaceState(null, '', `/page?id=42&auth_date=1700000000&hash=${hash}&keep=1`)
    const found = takeTelegramReturn()
    expect(found?.telegramAuthResult?.id).toBe(42)
    expect(location.search).toBe('?keep=1')
    expect(takeTelegramReturn()).toBeNull()
  })

  it("builds Telegram's login page URL (redirect mode)", () => {
    const url = new URL(
      telegramLoginUrl({
        botId: '123',
        origin: 'https://app.test',
        returnTo: 'https://app.test/cb',
      }),
    )
    expect(url.origin + url.pathname).toBe('https://oauth.telegram.org/auth')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      bot_id: '123',
      origin: 'https://app.test',
      return_to: 'https://app.test/cb',
      request_access: 'write',
    })
  })
})

describe('Telegram redirect', () => {
  it('remembers who asked; only that UI takes the return, once', () => {
    const { client } = setup(() => json(500, {}))
    history.replaceState(null, '', '/page?keep=1')
    let went = ''
    redirectToTelegram(client, {
      botId: '123',
      intent: 'link',
      ui: 'modal',
      navigate: (url) => {
        went = url
      },
    })
    expect(new URL(went).searchParams.get('return_to')).toBe(`${location.origin}/page?keep=1`)
    history.replaceState(null, '', `/page?keep=1&id=42&auth_date=1700000000&hash=${hash}`)
    expect(takeTelegramRedirect(client, { ui: 'app' })).toBeNull()
    expect(location.search).toContain('hash=')
    const taken = takeTelegramRedirect(client, { ui: 'modal' })
    expect(taken).toMatchObject({ intent: 'link', proof: { telegramAuthResult: { id: 42 } } })
    expect(location.search).toBe('?keep=1')
    expect(takeTelegramRedirect(client, { ui: 'modal' })).toBeNull()
  })

  it('ignores a stale pending redirect', () => {
    const { client } = setup(() => json(500, {}))
    redirectToTelegram(client, { botId: '1', ui: 'modal', navigate() {}, now: () => 0 })
    history.replaceState(null, '', `/page?id=42&auth_date=1700000000&hash=${hash}`)
    expect(takeTelegramRedirect(client, { ui: 'modal', now: 60 * 60_000 })).toBeNull()
  })
})

describe('Telegram flow', () => {
  const proof = { telegramAuthResult: { id: 1, auth_date: 1700000000, hash } }

  it('verifying → success, stores the session and the Recent method', async () => {
    const { client, calls } = setup(() =>
      json(200, { ...authResponse({ exp }), is_new_user: true }),
    )
    const flow = createTelegramFlow(client)
    const seen: string[] = []
    flow.subscribe(() => seen.push(flow.getState().status))
    await flow.submit(proof)
    expect(seen).toEqual(['verifying', 'success'])
    expect(flow.getState()).toMatchObject({ status: 'success', isNewUser: true })
    expect(calls[0]?.url).toBe('http://api.test/api/v1/telegram/authenticate')
    expect(calls[0]?.body).toEqual({
      telegram_auth_result: proof.telegramAuthResult,
      mode: 'login-or-sign-up',
    })
    expect(client.session.getState().status).toBe('authenticated')
    expect(getRecentLoginMethod(client.storage, APP_ID)).toBe('telegram')
  })

  it('failure carries the spec message and retries the same payload', async () => {
    let n = 0
    const { client, calls } = setup(() =>
      n++ === 0
        ? json(400, { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' })
        : json(200, authResponse({ exp })),
    )
    const flow = createTelegramFlow(client, { intent: { type: 'login', disableSignup: true } })
    await flow.submit({ telegramWebAppData: 'a=b&hash=c' })
    const state = flow.getState()
    expect(state).toMatchObject({ status: 'failure', retryable: true })
    if (state.status === 'failure')
      expect(state.error.userMessage.title).toBe('Authentication failed')
    await flow.retry()
    expect(flow.getState().status).toBe('success')
    expect(calls.map((c) => c.body)).toEqual([
      { telegram_web_app_data: 'a=b&hash=c', mode: 'no-signup' },
      { telegram_web_app_data: 'a=b&hash=c', mode: 'no-signup' },
    ])
  })

  it("shows 'Login with Telegram not allowed.' without a retry", async () => {
    const { client } = setup(() =>
      json(403, { code: 'TELEGRAM_NOT_ALLOWED', message: 'Login with Telegram not allowed.' }),
    )
    const flow = createTelegramFlow(client)
    await flow.submit(proof)
    const state = flow.getState()
    expect(state).toMatchObject({ status: 'failure', retryable: false })
    if (state.status === 'failure')
      expect(state.error.userMessage.title).toBe('Login with Telegram not allowed.')
  })
})

describe('readMiniAppInitData', () => {
  it('reads Telegram.WebApp.initData inside a Mini App, null elsewhere', async () => {
    const { readMiniAppInitData } = await import('./telegram.ts')
    expect(readMiniAppInitData({ Telegram: { WebApp: { initData: 'a=1&hash=b' } } })).toBe(
      'a=1&hash=b',
    )
    expect(readMiniAppInitData({ Telegram: { WebApp: { initData: '' } } })).toBeNull()
    expect(readMiniAppInitData({})).toBeNull()
  })
})
