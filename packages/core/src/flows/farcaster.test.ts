import { FARCASTER_CHANNEL_TOKEN_HEADER as PROTOCOL_HEADER } from '@latchkey/protocol/schemas'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { getRecentLoginMethod } from '../recent-login.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json, wireUser } from '../test/fake-server.ts'
import {
  FARCASTER_CHANNEL_TOKEN_HEADER,
  linkFarcaster,
  loginWithFarcaster,
  startFarcasterLogin,
  unlinkFarcaster,
  waitForFarcaster,
} from './farcaster.ts'

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
const completed = {
  state: 'completed',
  message: 'app.test wants you to sign in with your Ethereum account:…',
  signature: '0xabc',
  fid: 42,
  username: 'alice',
  display_name: 'Alice',
  bio: null,
  pfp_url: null,
}
const signed = {
  channelToken: 'chan-1',
  message: completed.message,
  signature: completed.signature,
  fid: 42,
}

describe('startFarcasterLogin', () => {
  it('opens a channel through the server, without the session token', async () => {
    const { client, calls } = setup(() =>
      json(200, {
        channel_token: 'chan-1',
        connect_uri: 'https://farcaster.xyz/~/siwf?channelToken=chan-1',
        expires_at: 5,
      }),
    )
    expect(await startFarcasterLogin(client, { captchaToken: 'cap' })).toEqual({
      channelToken: 'chan-1',
      connectUri: 'https://farcaster.xyz/~/siwf?channelToken=chan-1',
      expiresAt: 5,
    })
    expect(calls[0]).toMatchObject({
      url: 'http://api.test/api/v1/farcaster/init',
      method: 'POST',
      body: { token: 'cap' },
    })
    expect(calls[0]?.headers.authorization).toBeUndefined()
  })

  it('uses the header protocol names', () => {
    expect(FARCASTER_CHANNEL_TOKEN_HEADER).toBe(PROTOCOL_HEADER)
  })
})

describe('waitForFarcaster', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('polls every 2 s until the Farcaster app signed', async () => {
    let polls = 0
    const { client, calls } = setup(() =>
      ++polls < 4 ? json(200, { state: 'pending' }) : json(200, completed),
    )
    const result = waitForFarcaster(client, 'chan-1')
    await vi.advanceTimersByTimeAsync(0)
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1_999)
    expect(calls).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(1)
    expect(calls).toHaveLength(2)
    await vi.advanceTimersByTimeAsync(4_000)
    await expect(result).resolves.toEqual({
      channelToken: 'chan-1',
      message: completed.message,
      signature: '0xabc',
      fid: 42,
      username: 'alice',
      displayName: 'Alice',
      bio: null,
      pfpUrl: null,
    })
    expect(calls).toHaveLength(4)
    expect(calls[0]).toMatchObject({
      url: 'http://api.test/api/v1/farcaster/status',
      method: 'GET',
      headers: { 'farcaster-channel-token': 'chan-1' },
    })
    expect(calls[0]?.headers.authorization).toBeUndefined()
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toHaveLength(4)
  })

  it("gives up after 120 s with 'The request timed out. Try again.'", async () => {
    const { client, calls } = setup(() => json(200, { state: 'pending' }))
    const result = waitForFarcaster(client, 'chan-1')
    const settled = vi.fn()
    result.then(settled, settled)
    await vi.advanceTimersByTimeAsync(119_999)
    expect(settled).not.toHaveBeenCalled()
    expect(calls).toHaveLength(60)
    await vi.advanceTimersByTimeAsync(1)
    const error = await result.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LatchkeyError)
    expect(error).toMatchObject({ code: 'FARCASTER_TIMEOUT' })
    expect((error as LatchkeyError).userMessage).toEqual({
      title: 'The request timed out. Try again.',
      retryable: true,
    })
    // Polls at 0, 2, …, 118 s; none after the timeout.
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toHaveLength(60)
  })

  it('stops polling when aborted', async () => {
    const { client, calls } = setup(() => json(200, { state: 'pending' }))
    const controller = new AbortController()
    const result = waitForFarcaster(client, 'chan-1', { signal: controller.signal })
    await vi.advanceTimersByTimeAsync(4_000)
    expect(calls).toHaveLength(3)
    controller.abort()
    await expect(result).rejects.toMatchObject({ name: 'AbortError' })
    await vi.advanceTimersByTimeAsync(10_000)
    expect(calls).toHaveLength(3)
  })

  it('does not poll at all with an aborted signal', async () => {
    const { client, calls } = setup(() => json(200, { state: 'pending' }))
    const reason = new Error('closed')
    await expect(
      waitForFarcaster(client, 'chan-1', { signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason)
    expect(calls).toHaveLength(0)
  })

  it("rejects with the server's refusal, and polls through a network failure", async () => {
    let polls = 0
    const { client } = setup(() => {
      polls++
      if (polls === 1) throw new TypeError('Failed to fetch')
      return json(400, {
        code: 'AUTHENTICATION_FAILED',
        message: 'Authentication failed',
        details: { reason: 'unknown_channel' },
      })
    })
    const result = waitForFarcaster(client, 'chan-1').catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(await result).toMatchObject({
      code: 'AUTHENTICATION_FAILED',
      details: { reason: 'unknown_channel' },
    })
    expect(polls).toBe(2)
  })

  it('honours custom interval and timeout', async () => {
    const { client, calls } = setup(() => json(200, { state: 'pending' }))
    const result = waitForFarcaster(client, 'chan-1', { intervalMs: 500, timeoutMs: 1_000 })
    const caught = result.catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(await caught).toMatchObject({ code: 'FARCASTER_TIMEOUT' })
    expect(calls).toHaveLength(2)
  })
})

describe('loginWithFarcaster', () => {
  it('sends the signature, stores the session and the Recent method', async () => {
    const { client, calls } = setup(() =>
      json(200, { ...authResponse({ exp }), is_new_user: true }),
    )
    const { user, isNewUser } = await loginWithFarcaster(client, { ...signed, mode: 'no-signup' })
    expect(isNewUser).toBe(true)
    expect(user.id).toBe(wireUser().id)
    expect(calls[0]).toMatchObject({
      url: 'http://api.test/api/v1/farcaster/authenticate',
      body: {
        channel_token: 'chan-1',
        message: completed.message,
        signature: '0xabc',
        fid: 42,
        mode: 'no-signup',
      },
    })
    expect(client.session.getState().status).toBe('authenticated')
    expect(getRecentLoginMethod(client.storage, APP_ID)).toBe('farcaster')
  })

  it("surfaces 'Authentication failed' as a retryable LatchkeyError", async () => {
    const { client } = setup(() =>
      json(400, { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed' }),
    )
    const error = await loginWithFarcaster(client, signed).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'AUTHENTICATION_FAILED' })
    expect((error as LatchkeyError).userMessage.retryable).toBe(true)
    expect(client.session.getState().status).not.toBe('authenticated')
  })
})

describe('linkFarcaster / unlinkFarcaster', () => {
  const farcasterAccount = {
    type: 'farcaster',
    fid: 42,
    owner_address: '0x0000000000000000000000000000000000000001',
    username: 'alice',
    display_name: null,
    bio: null,
    profile_picture_url: null,
    signer_public_key: null,
    verified_at: 1_700_000_000,
    first_verified_at: 1_700_000_000,
    latest_verified_at: 1_700_000_000,
  }

  it('links with the session token, then unlinks by fid', async () => {
    const linked = {
      ...wireUser(),
      linked_accounts: [...wireUser().linked_accounts, farcasterAccount],
    }
    const { client, calls } = setup((call) => {
      if (call.url.endsWith('/farcaster/authenticate')) return json(200, authResponse({ exp }))
      if (call.url.endsWith('/farcaster/link')) return json(200, linked)
      return json(200, wireUser())
    })
    await loginWithFarcaster(client, signed)
    const user = await linkFarcaster(client, signed)
    expect(user.farcaster).toEqual({ fid: 42, username: 'alice' })
    expect(calls[1]).toMatchObject({
      url: 'http://api.test/api/v1/farcaster/link',
      body: { channel_token: 'chan-1', message: completed.message, signature: '0xabc', fid: 42 },
    })
    expect(calls[1]?.headers.authorization).toMatch(/^Bearer /)
    const after = await unlinkFarcaster(client, { fid: 42 })
    expect(after.farcaster).toBeUndefined()
    expect(calls[2]).toMatchObject({
      url: 'http://api.test/api/v1/farcaster/unlink',
      body: { fid: 42 },
    })
    expect(client.session.getState().user?.farcaster).toBeUndefined()
  })

  it('needs a logged-in user', async () => {
    const { client, calls } = setup(() => json(200, wireUser()))
    await expect(linkFarcaster(client, signed)).rejects.toMatchObject({
      code: 'NOT_AUTHENTICATED',
    })
    expect(calls).toHaveLength(0)
  })
})
