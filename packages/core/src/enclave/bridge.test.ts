import { ENCLAVE_INIT_TIMEOUT_MS } from '@latchkey/protocol/constants'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { LatchkeyError } from '../errors.ts'
import { type BridgeDocument, type BridgeWindow, createEnclaveBridge } from './bridge.ts'

const ENCLAVE = 'https://auth.example.com/apps/testappaaaaaaaaaaaaaaaaaa/embedded-wallets'

function setup(options: { initTimeoutMs?: number } = {}) {
  const listeners = new Set<(event: MessageEvent) => void>()
  const win: BridgeWindow = {
    addEventListener: (_t, l) => void listeners.add(l),
    removeEventListener: (_t, l) => void listeners.delete(l),
  }
  const posted: Array<{
    message: { id: string; event: string; data: unknown }
    targetOrigin: string
  }> = []
  let onPost = () => {}
  const frameWindow = {
    postMessage: (message: never, targetOrigin: string) => {
      posted.push({ message, targetOrigin })
      onPost()
    },
  }
  /** Resolves once the bridge has posted `count` messages to the frame. */
  const whenPosted = (count: number) =>
    new Promise<void>((resolve) => {
      onPost = () => {
        if (posted.length >= count) resolve()
      }
      onPost()
    })
  const iframe = {
    style: { cssText: '' },
    setAttribute: vi.fn(),
    addEventListener: vi.fn(),
    remove: vi.fn(),
    contentWindow: frameWindow,
  } as unknown as HTMLIFrameElement
  const doc: BridgeDocument = { createElement: () => iframe, body: { appendChild: vi.fn() } }
  let n = 0
  const bridge = createEnclaveBridge({
    url: ENCLAVE,
    window: win,
    document: doc,
    newId: () => `req-${++n}`,
    ...options,
  })
  const deliver = (
    data: unknown,
    origin = 'https://auth.example.com',
    source: unknown = frameWindow,
  ) => {
    for (const listener of listeners) listener({ data, origin, source } as MessageEvent)
  }
  return { bridge, posted, whenPosted, deliver, iframe, listeners }
}

afterEach(() => vi.useRealTimers())

describe('enclave bridge', () => {
  it('frames the enclave page invisibly', () => {
    const { iframe } = setup()
    expect(iframe.src).toBe(ENCLAVE)
    expect(iframe.style.cssText).toContain('visibility:hidden')
  })

  it('waits for ready, posts { id, event, data } to the exact enclave origin, and resolves the matching answer', async () => {
    const { bridge, posted, whenPosted, deliver } = setup()
    const answer = bridge.request('latchkey:wallets:connect', { accessToken: 't' })
    await Promise.resolve()
    expect(posted).toHaveLength(0)
    deliver({ event: 'latchkey:iframe:ready' })
    await whenPosted(1)
    expect(posted[0]).toEqual({
      message: { id: 'req-1', event: 'latchkey:wallets:connect', data: { accessToken: 't' } },
      targetOrigin: 'https://auth.example.com',
    })
    deliver({ id: 'req-1', event: 'latchkey:wallets:connect:result', data: { address: '0xabc' } })
    await expect(answer).resolves.toEqual({ address: '0xabc' })
  })

  it('turns enclave errors into typed errors', async () => {
    const { bridge, whenPosted, deliver } = setup()
    deliver({ event: 'latchkey:iframe:ready' })
    const answer = bridge.request('latchkey:wallets:create', {})
    await whenPosted(1)
    deliver({
      id: 'req-1',
      event: 'latchkey:wallets:create:error',
      error: { code: 'WALLET_ALREADY_EXISTS', message: 'User already has an embedded wallet.' },
    })
    await expect(answer).rejects.toMatchObject({
      code: 'WALLET_ALREADY_EXISTS',
      message: 'User already has an embedded wallet.',
    })
  })

  it("keeps the server's retry_after and details of an error the enclave passed on", async () => {
    const { bridge, whenPosted, deliver } = setup()
    deliver({ event: 'latchkey:iframe:ready' })
    const answer = bridge.request('latchkey:mfa:verify', {})
    await whenPosted(1)
    const error = {
      code: 'MFA_MAX_ATTEMPTS',
      message: 'Too many codes: try again in 15 minutes.',
      retry_after: 900,
    }
    deliver({ id: 'req-1', event: 'latchkey:mfa:verify:error', error })
    await expect(answer).rejects.toMatchObject({
      code: 'MFA_MAX_ATTEMPTS',
      retryAfter: 900,
      details: error,
    })
  })
})

describe('postMessage origin checks (security bar 46)', () => {
  it.each([
    ['a look-alike origin', 'https://auth.example.com.evil.test'],
    ['a prefix of the origin', 'https://auth.example.co'],
    ['another scheme', 'http://auth.example.com'],
    ['another port', 'https://auth.example.com:8443'],
  ])('ignores answers from %s', async (_name, origin) => {
    const { bridge, whenPosted, deliver } = setup()
    deliver({ event: 'latchkey:iframe:ready' })
    const answer = bridge.request('latchkey:wallets:connect', {})
    await whenPosted(1)
    deliver(
      { id: 'req-1', event: 'latchkey:wallets:connect:result', data: { address: '0xevil' } },
      origin,
    )
    deliver({ id: 'req-1', event: 'latchkey:wallets:connect:result', data: { address: '0xgood' } })
    // A promise settles once: '0xgood' means the look-alike's answer neither settled nor dropped it.
    await expect(answer).resolves.toEqual({ address: '0xgood' })
  })

  it('ignores a right-origin message from another window (not our frame)', async () => {
    vi.useFakeTimers()
    const { bridge, posted, deliver } = setup()
    deliver({ event: 'latchkey:iframe:ready' }, 'https://auth.example.com', {})
    const answer = bridge.request('latchkey:wallets:connect', {}).catch((e: LatchkeyError) => e)
    // Still not ready: nothing is posted, and the call waits out the init timeout.
    await vi.advanceTimersByTimeAsync(ENCLAVE_INIT_TIMEOUT_MS)
    expect(posted).toHaveLength(0)
    expect(await answer).toMatchObject({ code: 'WALLET_PROXY_UNAVAILABLE' })
  })

  it('never posts to "*"', async () => {
    const { bridge, posted, whenPosted, deliver } = setup()
    deliver({ event: 'latchkey:iframe:ready' })
    void bridge.request('latchkey:clear', {})
    await whenPosted(1)
    expect(posted.every((p) => p.targetOrigin === 'https://auth.example.com')).toBe(true)
  })
})

describe('wallet proxy availability', () => {
  it("fails with 'Failed to connect to wallet proxy' when the enclave never becomes ready (30 s)", async () => {
    vi.useFakeTimers()
    const { bridge } = setup()
    const answer = bridge.request('latchkey:wallets:create', {})
    let failed = false
    const caught = answer.catch((e: LatchkeyError) => {
      failed = true
      return e
    })
    await vi.advanceTimersByTimeAsync(ENCLAVE_INIT_TIMEOUT_MS - 1)
    expect(failed).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(failed).toBe(true)
    expect(await caught).toMatchObject({
      code: 'WALLET_PROXY_UNAVAILABLE',
      message: 'Failed to connect to wallet proxy',
    })
  })

  it('takes a shorter init timeout per call (15 s for import and Solana message signing)', async () => {
    vi.useFakeTimers()
    const { bridge } = setup()
    const caught = bridge
      .request('latchkey:wallets:import', {}, { initTimeoutMs: 15_000 })
      .catch((e: LatchkeyError) => e)
    await vi.advanceTimersByTimeAsync(15_000)
    expect(await caught).toMatchObject({ code: 'WALLET_PROXY_UNAVAILABLE' })
  })

  it('requires HTTPS except on localhost', () => {
    const doc: BridgeDocument = {
      createElement: () => ({}) as HTMLIFrameElement,
      body: { appendChild: () => {} },
    }
    const win: BridgeWindow = { addEventListener() {}, removeEventListener() {} }
    expect(() =>
      createEnclaveBridge({
        url: 'http://auth.example.com/apps/x/embedded-wallets',
        window: win,
        document: doc,
      }),
    ).toThrow('Embedded wallets require HTTPS (except on localhost)')
  })

  it("rejects pending and later calls with 'Cannot connect to wallet proxy' when destroyed", async () => {
    const { bridge, whenPosted, deliver, listeners } = setup()
    deliver({ event: 'latchkey:iframe:ready' })
    const answer = bridge.request('latchkey:wallets:connect', {})
    await whenPosted(1)
    bridge.destroy()
    await expect(answer).rejects.toMatchObject({
      code: 'WALLET_PROXY_DISCONNECTED',
      message: 'Cannot connect to wallet proxy',
    })
    expect(listeners.size).toBe(0)
    // Spec 02 §8: the frame is gone, so a later call fails at once (no 30 s wait).
    await expect(bridge.request('latchkey:wallets:connect', {})).rejects.toMatchObject({
      code: 'WALLET_PROXY_DISCONNECTED',
    })
  })
})

describe('enclave key thumbprint (docs/security.md "Key routes answer only to the enclave")', () => {
  const JKT = 'NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs'

  it('resolves with the thumbprint the ready message announced, waiting for it', async () => {
    const { bridge, deliver } = setup()
    const thumbprint = bridge.keyThumbprint({ timeoutMs: 5_000 })
    deliver({ event: 'latchkey:iframe:ready', data: { key_thumbprint: JKT } })
    expect(await thumbprint).toBe(JKT)
    expect(await bridge.keyThumbprint()).toBe(JKT)
  })

  it('takes the thumbprint only from the enclave frame and origin', async () => {
    const { bridge, deliver } = setup()
    const other = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
    deliver(
      { event: 'latchkey:iframe:ready', data: { key_thumbprint: other } },
      'https://evil.test',
    )
    deliver({ event: 'latchkey:iframe:ready', data: { key_thumbprint: other } }, undefined, {})
    deliver({ event: 'latchkey:iframe:ready', data: { key_thumbprint: JKT } })
    expect(await bridge.keyThumbprint()).toBe(JKT)
  })

  it.each([
    ['no key (the enclave could not load one)', { key_thumbprint: null }],
    ['no data (an older enclave)', undefined],
    ['a value that is not a thumbprint', { key_thumbprint: 'not a thumbprint' }],
  ])('resolves null for a ready message with %s', async (_, data) => {
    const { bridge, deliver } = setup()
    deliver({ event: 'latchkey:iframe:ready', data })
    expect(await bridge.keyThumbprint()).toBeNull()
  })

  it('resolves null, without rejecting, when the enclave is not ready within the timeout', async () => {
    vi.useFakeTimers()
    const { bridge } = setup()
    let settled: string | null | undefined
    const thumbprint = bridge.keyThumbprint({ timeoutMs: 5_000 }).then((value) => {
      settled = value
      return value
    })
    await vi.advanceTimersByTimeAsync(4_999)
    expect(settled).toBeUndefined()
    await vi.advanceTimersByTimeAsync(1)
    expect(await thumbprint).toBeNull()
  })

  it('resolves null at once when the frame fails to load', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => {})
    const { bridge, iframe } = setup()
    const onError = vi
      .mocked(iframe.addEventListener)
      .mock.calls.find(([type]) => type === 'error')?.[1] as () => void
    onError()
    expect(await bridge.keyThumbprint({ timeoutMs: 60_000 })).toBeNull()
    vi.restoreAllMocks()
  })
})
