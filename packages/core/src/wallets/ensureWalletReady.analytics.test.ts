import type { RecoveryMethod } from '@latchkey/protocol/schemas'
import { describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json } from '../test/fake-server.ts'
import { attachEnclave } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'

// Spec 03 §7: embedded_wallet_pinless_recovery_started and
// embedded_wallet_recovery_completed, sent as the recovery happens.

const ENTROPY = '0x1111111111111111111111111111111111111111'

function setup(status: 'ready' | 'needs-recovery', method: RecoveryMethod, fail = false) {
  const fake = createFakeFetch(() => json(200, { success: true }))
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://localhost:8787',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
  })
  client.session.applyAuthResponse(authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }))
  // Enclave calls and analytics events, in the order they happen.
  const order: string[] = []
  const request = vi.fn(async (event: string) => {
    order.push(event)
    if (event === 'latchkey:wallets:connect')
      return { entropy_id: ENTROPY, status, recovery_method: method }
    if (event === 'latchkey:wallets:recover' && fail) throw new Error('recovery failed')
    return {}
  })
  const send = client.trackEvent.bind(client)
  const track = vi.fn((name: string, payload?: Record<string, unknown>) => {
    order.push(name)
    send(name, payload)
  })
  client.trackEvent = track
  attachEnclave(client, {
    origin: 'http://localhost:8787',
    request: request as never,
    keyThumbprint: async () => null,
    destroy() {},
  })
  /** The first `count` analytics events posted (the posts are not awaited by the caller). */
  const events = async (count: number) => {
    const posted = () =>
      fake.calls
        .filter((call) => call.url.endsWith('/api/v1/analytics_events'))
        .map((call) => call.body as { event_name: string; payload: Record<string, unknown> })
    await vi.waitFor(() => expect(posted().length).toBeGreaterThanOrEqual(count))
    return posted()
  }
  return { client, events, order, track }
}

describe('recovery analytics events (spec 03 §7)', () => {
  it('automatic recovery: pinless_recovery_started before the recovery, recovery_completed after', async () => {
    const { client, events, order } = setup('needs-recovery', 'latchkey')
    await ensureWalletReady(client, ENTROPY)
    expect(order).toEqual([
      'latchkey:wallets:connect',
      'embedded_wallet_pinless_recovery_started',
      'latchkey:wallets:recover',
      'embedded_wallet_recovery_completed',
    ])
    const sent = await events(2)
    expect(sent.map((e) => e.event_name)).toEqual([
      'embedded_wallet_pinless_recovery_started',
      'embedded_wallet_recovery_completed',
    ])
    expect(sent[1]?.payload).toMatchObject({ recoveryMethod: 'latchkey' })
    expect(typeof sent[1]?.payload.clientTimestamp).toBe('string')
  })

  it('password recovery: only recovery_completed (it is not pinless), with the method', async () => {
    const { client, events } = setup('needs-recovery', 'user-passcode')
    await ensureWalletReady(client, ENTROPY, 'correct horse')
    const sent = await events(1)
    expect(sent.map((e) => [e.event_name, e.payload.recoveryMethod])).toEqual([
      ['embedded_wallet_recovery_completed', 'user-passcode'],
    ])
  })

  it('no recovery_completed when the wallet is already here, the recovery fails or waits for the user', async () => {
    const ready = setup('ready', 'latchkey')
    await ensureWalletReady(ready.client, ENTROPY)
    expect(ready.track).not.toHaveBeenCalled()

    const failing = setup('needs-recovery', 'latchkey', true)
    await expect(ensureWalletReady(failing.client, ENTROPY)).rejects.toThrow()
    expect(failing.track.mock.calls.map(([name]) => name)).toEqual([
      'embedded_wallet_pinless_recovery_started',
    ])

    const waiting = setup('needs-recovery', 'user-passcode')
    await expect(ensureWalletReady(waiting.client, ENTROPY)).rejects.toMatchObject({
      code: 'RECOVERY_REQUIRED',
    })
    expect(waiting.track).not.toHaveBeenCalled()
  })
})
