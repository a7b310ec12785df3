import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from './client.ts'
import { LatchkeyError } from './errors.ts'
import { getFarcasterSignerStatus, waitForFarcasterSigner } from './farcaster-signer.ts'
import { createMemoryStorage } from './storage.ts'
import { APP_ID, createFakeFetch, json } from './test/fake-server.ts'

// The Farcaster signer's wait in the browser (spec 03 §4 "Farcaster signer",
// §9): the server is polled every 2 s; approved resolves, revoked is
// 'Request rejected', 5 minutes is 'The request timed out. Try again.'.

const KEY = `0x${'ab'.repeat(32)}`

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

const signer = (status: string, fid: number | null = null) => ({
  public_key: KEY,
  status,
  signer_approval_url:
    status === 'pending_approval' ? 'farcaster://signed-key-request?token=t' : null,
  fid,
})

beforeEach(() => {
  vi.useFakeTimers()
})
afterEach(() => {
  vi.useRealTimers()
})

describe('getFarcasterSignerStatus', () => {
  it('posts the key to the status route and reads the answer', async () => {
    const { client, calls } = setup(() => json(200, signer('pending_approval')))
    await expect(getFarcasterSignerStatus(client, KEY)).resolves.toEqual({
      publicKey: KEY,
      status: 'pending_approval',
      signerApprovalUrl: 'farcaster://signed-key-request?token=t',
      fid: null,
    })
    expect(calls[0]).toMatchObject({
      url: 'http://api.test/api/v1/farcaster/signer/status',
      method: 'POST',
      body: { ed25519_public_key: KEY },
    })
  })
})

describe('waitForFarcasterSigner', () => {
  it('polls every 2 s until approved', async () => {
    let polls = 0
    const { client, calls } = setup(() =>
      json(200, ++polls < 3 ? signer('pending_approval') : signer('approved', 42)),
    )
    const result = waitForFarcasterSigner(client, KEY)
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1_999)
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(2_000)
    await expect(result).resolves.toMatchObject({ status: 'approved', fid: 42 })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toHaveLength(3)
  })

  it("revoked rejects with 'Request rejected'", async () => {
    const { client } = setup(() => json(200, signer('revoked')))
    const error = await waitForFarcasterSigner(client, KEY).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LatchkeyError)
    expect((error as LatchkeyError).code).toBe('FARCASTER_SIGNER_REJECTED')
    expect((error as LatchkeyError).userMessage.title).toBe('Request rejected')
  })

  it("gives up after 5 minutes with 'The request timed out. Try again.'", async () => {
    const { client, calls } = setup(() => json(200, signer('pending_approval')))
    const result = waitForFarcasterSigner(client, KEY)
    const settled = vi.fn()
    result.then(settled, settled)
    await vi.advanceTimersByTimeAsync(299_999)
    expect(settled).not.toHaveBeenCalled()
    expect(calls).toHaveLength(150)
    await vi.advanceTimersByTimeAsync(1)
    const error = await result.catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'FARCASTER_TIMEOUT' })
    expect((error as LatchkeyError).userMessage.title).toBe('The request timed out. Try again.')
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toHaveLength(150)
  })

  it("rejects with the server's refusal; polls through a network failure; stops when aborted", async () => {
    let polls = 0
    const { client } = setup(() => {
      polls++
      if (polls === 1) throw new TypeError('Failed to fetch')
      return json(404, { code: 'FARCASTER_SIGNER_NOT_FOUND', message: 'Connect failed' })
    })
    const refused = waitForFarcasterSigner(client, KEY).catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(await refused).toMatchObject({ code: 'FARCASTER_SIGNER_NOT_FOUND' })

    const pending = setup(() => json(200, signer('pending_approval')))
    const controller = new AbortController()
    const aborted = waitForFarcasterSigner(pending.client, KEY, { signal: controller.signal })
    await vi.advanceTimersByTimeAsync(2_000)
    controller.abort()
    await expect(aborted).rejects.toMatchObject({ name: 'AbortError' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(pending.calls).toHaveLength(2)
  })
})
