import { ENCLAVE_INIT_TIMEOUT_MS } from '@latchkey/protocol/constants'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LatchkeyError } from '../errors.ts'
import { type BridgeDocument, type BridgeWindow, createEnclaveBridge } from './bridge.ts'

// Spec 03 §8 'Failed to initialize embedded wallet proxy.': a frame that fails
// to load fails the calls waiting for it at once, instead of after the 30 s
// init timeout ('Failed to connect to wallet proxy' stays for a silent frame).

const ENCLAVE = 'https://auth.example.com/apps/testappaaaaaaaaaaaaaaaaaa/embedded-wallets'

function setup() {
  const listeners = new Set<(event: MessageEvent) => void>()
  const win: BridgeWindow = {
    addEventListener: (_t, l) => void listeners.add(l),
    removeEventListener: (_t, l) => void listeners.delete(l),
  }
  const posted: unknown[] = []
  const frameWindow = { postMessage: (message: unknown) => void posted.push(message) }
  const frameListeners = new Map<string, () => void>()
  const iframe = {
    style: { cssText: '' },
    setAttribute() {},
    addEventListener: (type: string, listener: () => void) => frameListeners.set(type, listener),
    remove() {},
    contentWindow: frameWindow,
  } as unknown as HTMLIFrameElement
  const doc: BridgeDocument = { createElement: () => iframe, body: { appendChild() {} } }
  const logger = { warn: vi.fn() }
  const bridge = createEnclaveBridge({ url: ENCLAVE, window: win, document: doc, logger })
  const fireLoadError = () => frameListeners.get('error')?.()
  const deliver = (data: unknown) => {
    for (const listener of listeners)
      listener({ data, origin: 'https://auth.example.com', source: frameWindow } as MessageEvent)
  }
  return { bridge, posted, fireLoadError, deliver, logger }
}

afterEach(() => vi.useRealTimers())

describe('enclave frame load failure', () => {
  it("fails a waiting call at once with 'Failed to initialize embedded wallet proxy.'", async () => {
    vi.useFakeTimers()
    const { bridge, posted, fireLoadError, logger } = setup()
    let outcome: LatchkeyError | undefined
    const call = bridge.request('latchkey:wallets:connect', {}).catch((error: LatchkeyError) => {
      outcome = error
    })
    await vi.advanceTimersByTimeAsync(1_000)
    expect(outcome).toBeUndefined()
    fireLoadError()
    await call
    expect(outcome).toMatchObject({
      code: 'WALLET_PROXY_INIT_FAILED',
      message: 'Failed to initialize embedded wallet proxy.',
    })
    // No time passed beyond the first second: it did not wait for the 30 s timeout.
    expect(vi.getTimerCount()).toBe(0)
    expect(posted).toHaveLength(0)
    expect(logger.warn).toHaveBeenCalledOnce()
  })

  it('fails a later call at once too, without starting a wait', async () => {
    vi.useFakeTimers()
    const { bridge, fireLoadError } = setup()
    fireLoadError()
    await expect(bridge.request('latchkey:wallets:create', {})).rejects.toMatchObject({
      code: 'WALLET_PROXY_INIT_FAILED',
    })
    expect(vi.getTimerCount()).toBe(0)
  })

  it("a frame that loads but stays silent still fails at the init timeout: 'Failed to connect to wallet proxy'", async () => {
    vi.useFakeTimers()
    const { bridge } = setup()
    const caught = bridge.request('latchkey:wallets:connect', {}).catch((e: LatchkeyError) => e)
    await vi.advanceTimersByTimeAsync(ENCLAVE_INIT_TIMEOUT_MS)
    expect(await caught).toMatchObject({
      code: 'WALLET_PROXY_UNAVAILABLE',
      message: 'Failed to connect to wallet proxy',
    })
  })

  it('a ready message after the failure (the frame loaded after all) lets calls through', async () => {
    const { bridge, posted, fireLoadError, deliver } = setup()
    fireLoadError()
    deliver({ event: 'latchkey:iframe:ready', data: { key_thumbprint: null } })
    const answer = bridge.request('latchkey:wallets:connect', {})
    await vi.waitFor(() => expect(posted).toHaveLength(1))
    const { id } = posted[0] as { id: string }
    deliver({ id, event: 'latchkey:wallets:connect:result', data: { ok: true } })
    await expect(answer).resolves.toEqual({ ok: true })
  })

  it('an error event after ready changes nothing', async () => {
    const { bridge, posted, fireLoadError, deliver } = setup()
    deliver({ event: 'latchkey:iframe:ready', data: { key_thumbprint: null } })
    fireLoadError()
    const answer = bridge.request('latchkey:wallets:connect', {})
    await vi.waitFor(() => expect(posted).toHaveLength(1))
    const { id } = posted[0] as { id: string }
    deliver({ id, event: 'latchkey:wallets:connect:result', data: 1 })
    await expect(answer).resolves.toBe(1)
  })
})
