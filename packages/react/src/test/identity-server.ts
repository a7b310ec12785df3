import { vi } from 'vitest'
import { APP_ID, accessToken, createFakeServer, wireUser } from './fake-server.ts'

/** A recorded request to the identity fake server. */
export interface IdentityCall {
  path: string
  body: unknown
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const authResponse = (user: ReturnType<typeof wireUser>) => ({
  user,
  is_new_user: true,
  token: accessToken(Math.floor(Date.now() / 1000) + 3600),
  refresh_token: 'refresh-1',
  identity_token: null,
  session_update_action: 'set',
})

/** A Telegram result hash the fake server refuses ('Authentication failed'). */
export const REFUSED_TELEGRAM_HASH = 'f'.repeat(64)

/**
 * The fake server of `fake-server.ts` plus the Telegram, custom-JWT and guest
 * routes, stubbed as the global `fetch`. `telegramConfig` is the app's
 * `telegram_auth_config` (null: Telegram not set up).
 */
export function stubIdentityServer(options: { telegramConfig?: unknown } = {}) {
  const calls: IdentityCall[] = []
  const telegramConfig =
    options.telegramConfig === undefined
      ? {
          bot_id: '7000000001',
          bot_name: 'latchkey_test_bot',
          link_enabled: true,
          seamless_auth_enabled: true,
        }
      : options.telegramConfig
  const base = createFakeServer()
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = new URL(String(input)).pathname
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    calls.push({ path, body })
    const now = Math.floor(Date.now() / 1000)
    if (path === `/api/v1/apps/${APP_ID}`) {
      const response = await base.fetch(input, init)
      return json(200, { ...(await response.json()), telegram_auth_config: telegramConfig })
    }
    if (path === '/api/v1/telegram/authenticate') {
      if (body.telegram_auth_result?.hash === REFUSED_TELEGRAM_HASH)
        return json(400, { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' })
      return json(200, authResponse(wireUser('tg@example.com', now)))
    }
    if (path === '/api/v1/custom_jwt_account/authenticate')
      return json(200, authResponse(wireUser('custom@example.com', now)))
    if (path === '/api/v1/guest/authenticate')
      return json(200, authResponse({ ...wireUser('x', now), linked_accounts: [], is_guest: true }))
    return base.fetch(input, init)
  })
  return { calls }
}
