import { routes } from '@latchkey/protocol/routes'
import { expect } from 'vitest'
import { FAKE_MFA_CODE, sessionToken } from './fake-mfa.test-helper.ts'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST } from './harness.test-helper.ts'
import type { VisibilitySource, WarmKeyClock, WarmKeys } from './warm-keys.ts'

export const ALICE = 'user-alice'

/**
 * A clock whose timers run only when the test moves it (`advance`), in due
 * order; `now` starts at the real time so proofs stay valid.
 */
export function manualClock(start = Date.now()) {
  let time = start
  let next = 0
  const timers = new Map<number, { at: number; run: () => void }>()
  const clock: WarmKeyClock & {
    advance(ms: number): void
    pending(): number
    set(t: number): void
  } = {
    now: () => time,
    setTimeout(run, ms) {
      const id = ++next
      timers.set(id, { at: time + ms, run })
      return id
    },
    clearTimeout(handle) {
      timers.delete(handle as number)
    },
    advance(ms) {
      const end = time + ms
      for (;;) {
        const due = [...timers.entries()]
          .filter(([, t]) => t.at <= end)
          .sort((a, b) => a[1].at - b[1].at)[0]
        if (!due) break
        timers.delete(due[0])
        time = due[1].at
        due[1].run()
      }
      time = end
    },
    /** Moves time without running any timer (a frozen or throttled page). */
    set(t) {
      time = t
    },
    pending: () => timers.size,
  }
  return clock
}

/** A document whose visibility the test flips; it fires `visibilitychange` like a browser. */
export function fakeDocument(): VisibilitySource & { setHidden(hidden: boolean): void } {
  const listeners = new Set<() => void>()
  let state = 'visible'
  return {
    get visibilityState() {
      return state
    },
    addEventListener: (_type, listener) => listeners.add(listener),
    removeEventListener: (_type, listener) => listeners.delete(listener),
    setHidden(hidden) {
      state = hidden ? 'hidden' : 'visible'
      for (const listener of listeners) listener()
    },
  }
}

/**
 * The page with one Ethereum wallet of Alice, who has an authenticator app;
 * `token` (session `session-a`) has verified it, so its auth share comes
 * with `warm_until`. `sign` asks for a personal_sign as the host would.
 */
export async function warmSetup(options: { warmKeys?: WarmKeys; now?: () => number } = {}) {
  const server = createFakeServer({ appId: APP_ID, ...(options.now ? { now: options.now } : {}) })
  const h = createHarness({
    fetch: server.fetch,
    ancestorOrigins: [HOST],
    ...(options.warmKeys ? { warmKeys: options.warmKeys } : {}),
  })
  const token = sessionToken(ALICE, 'session-a')
  const created = await h.request('latchkey:wallets:create', {
    access_token: token,
    chain_types: ['ethereum'],
    recovery: { method: 'latchkey' },
  })
  const user = (created.message.data as { user: { linked_accounts: { address: string }[] } }).user
  const address = user.linked_accounts[0]?.address as `0x${string}`
  server.mfa.enroll(ALICE, 'totp')
  const verify = (as = token) =>
    h.request('latchkey:mfa:verify', {
      access_token: as,
      request: { method: 'totp', code: FAKE_MFA_CODE },
    })
  expect((await verify()).message.event).toBe('latchkey:mfa:verify:result')
  const sign = (as = token, message = 'hello') =>
    h.request('latchkey:wallets:rpc', {
      access_token: as,
      entropy_id: address,
      chain_type: 'ethereum',
      wallet_index: 0,
      request: { method: 'personal_sign', params: [message, address] },
    })
  const authShareFetches = () =>
    server.calls.filter((c) => c.path === routes.embeddedWalletsAuthShare).length
  return { server, h, token, address, sign, verify, authShareFetches }
}

/** The signature of a sign answer (fails the test on an error answer). */
export function signatureOf(answer: { message: { data?: unknown; error?: unknown } }) {
  expect(answer.message.error).toBeUndefined()
  return (answer.message.data as { result: `0x${string}` }).result
}
