import {
  createLatchkeyClient,
  type FarcasterSigner,
  LatchkeyError,
  waitForFarcasterSigner,
} from '@latchkey/core'
import { act, cleanup, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { API_URL, APP_ID } from '../../test/fake-server.ts'
import FarcasterSignerScreen from './FarcasterSignerScreen.tsx'
import type { FarcasterSignerRequest } from './request.ts'

// 'Add a signer to Farcaster' (spec 03 §2, §4, §9) with fake timers: the
// status is polled every 2 s through core's real poller against a stubbed
// server; approved shows success and closes 1.4 s later; revoked, 5 minutes
// and a missing key show spec 03 §8's messages.

const KEY = `0x${'cd'.repeat(32)}` as const
const URL_ = 'farcaster://signed-key-request?token=0xabc'
const PENDING: FarcasterSigner = {
  publicKey: KEY,
  status: 'pending_approval',
  signerApprovalUrl: URL_,
  fid: null,
}

let statuses: string[]
let polls: number

function request(
  init: () => Promise<FarcasterSigner> = async () => PENDING,
): FarcasterSignerRequest {
  const fetch = (async () => {
    polls++
    const status = statuses.shift() ?? 'pending_approval'
    return new Response(
      JSON.stringify({
        public_key: KEY,
        status,
        signer_approval_url: status === 'pending_approval' ? URL_ : null,
        fid: status === 'approved' ? 42 : null,
      }),
      { status: 200, headers: { 'content-type': 'application/json' } },
    )
  }) as typeof globalThis.fetch
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: API_URL,
    fetch,
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {}, maxRetries: 0 },
  })
  return {
    screen: 'farcaster-signer',
    init,
    wait: (publicKey, signal) => waitForFarcasterSigner(client, publicKey, { signal }),
  }
}

const elapse = (ms = 0) => act(() => vi.advanceTimersByTimeAsync(ms))
const heading = () => screen.getByRole('heading').textContent

function renderScreen(req: FarcasterSignerRequest) {
  const props = { onApproved: vi.fn(), onClose: vi.fn() }
  render(<FarcasterSignerScreen request={req} {...props} />)
  return props
}

beforeEach(() => {
  vi.useFakeTimers()
  statuses = []
  polls = 0
})
afterEach(() => {
  cleanup()
  vi.useRealTimers()
  vi.unstubAllGlobals()
})

describe('FarcasterSignerScreen', () => {
  it('shows the QR code and the copyable link, polls every 2 s, succeeds and closes after 1.4 s', async () => {
    statuses = ['pending_approval', 'pending_approval', 'approved']
    const props = renderScreen(request())
    await elapse()
    expect(heading()).toBe('Add a signer to Farcaster')
    expect(screen.getByRole('img', { name: 'Farcaster signer QR code' })).toBeTruthy()
    expect(screen.getByTestId('lk-farcaster-signer-url').textContent).toBe(URL_)
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy()
    expect(polls).toBe(1)
    await elapse(1_999)
    expect(polls).toBe(1)
    await elapse(1)
    expect(polls).toBe(2)
    await elapse(2_000)
    expect(polls).toBe(3)
    expect(heading()).toBe('Success!')
    expect(props.onApproved).toHaveBeenCalledWith(
      expect.objectContaining({ status: 'approved', fid: 42 }),
    )
    await elapse(1_399)
    expect(props.onClose).not.toHaveBeenCalled()
    await elapse(1)
    expect(props.onClose).toHaveBeenCalledTimes(1)
  })

  it("revoked shows 'Request rejected'", async () => {
    statuses = ['pending_approval', 'revoked']
    const props = renderScreen(request())
    await elapse(2_000)
    expect(heading()).toBe('Request rejected')
    expect(screen.getByRole('alert').textContent).toBe('Request rejected')
    expect(props.onApproved).not.toHaveBeenCalled()
  })

  it("over 5 minutes shows 'The request timed out. Try again.'; Retry starts again", async () => {
    const init = vi.fn(async () => PENDING)
    renderScreen(request(init))
    await elapse(299_999)
    expect(heading()).toBe('Add a signer to Farcaster')
    await elapse(1)
    expect(heading()).toBe('The request timed out. Try again.')
    const count = polls
    await elapse(10_000)
    expect(polls).toBe(count)
    await act(async () => screen.getByRole('button', { name: 'Retry' }).click())
    await elapse()
    expect(heading()).toBe('Add a signer to Farcaster')
    expect(init).toHaveBeenCalledTimes(2)
  })

  it("a missing public key shows 'Connect failed'", async () => {
    renderScreen(
      request(async () => Promise.reject(new LatchkeyError('FARCASTER_SIGNER_CONNECT_FAILED'))),
    )
    await elapse()
    expect(heading()).toBe('Connect failed')
    expect(polls).toBe(0)
  })

  it('an already approved signer succeeds without polling', async () => {
    const props = renderScreen(
      request(async () => ({ ...PENDING, status: 'approved', signerApprovalUrl: null, fid: 7 })),
    )
    await elapse()
    expect(heading()).toBe('Success!')
    expect(polls).toBe(0)
    await elapse(1_400)
    expect(props.onClose).toHaveBeenCalledTimes(1)
  })

  it("on mobile: an 'Open Farcaster app' button instead of the QR code", async () => {
    vi.stubGlobal('navigator', {
      ...navigator,
      userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0)',
    })
    renderScreen(request())
    await elapse()
    const open = screen.getByRole('link', { name: 'Open Farcaster app' })
    expect(open.getAttribute('href')).toBe(URL_)
    expect(screen.queryByRole('img', { name: 'Farcaster signer QR code' })).toBeNull()
  })
})
