import { ENCLAVE_READY_EVENT } from '@latchkey/protocol/constants'
import { describe, expect, it, vi } from 'vitest'
import { createServerApi } from './api.ts'
import { type ChannelWindow, type ParentWindow, startChannel } from './channel.ts'
import { readConfig } from './config.ts'
import { createFakeServer } from './fake-server.test-helper.ts'
import { createHandlers } from './handlers.ts'
import { APP_ID, createHarness, HOST, settle } from './harness.test-helper.ts'
import { MemoryDeviceShareStore } from './store.ts'

const token = 'user-alice'
const connect = { access_token: token, entropy_id: '0x0000000000000000000000000000000000000001' }

function setup(
  options: Parameters<typeof createHarness>[0] extends infer O ? Partial<O> : never = {},
) {
  const server = createFakeServer({ appId: APP_ID })
  const harness = createHarness({ fetch: server.fetch, ...options })
  return { server, ...harness }
}

describe('ready announcement', () => {
  it('posts ready with the device key thumbprint to the exact parent origin, never "*"', async () => {
    const { posted, ready, key } = setup({ ancestorOrigins: [HOST] })
    expect(posted).toEqual([])
    await ready
    const key_thumbprint = await key.thumbprint
    expect(key_thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(posted).toEqual([
      { message: { event: ENCLAVE_READY_EVENT, data: { key_thumbprint } }, targetOrigin: HOST },
    ])
  })

  it('announces a null thumbprint when the device key cannot be loaded', async () => {
    const parent = { postMessage: vi.fn() }
    const win = {
      parent,
      addEventListener() {},
      removeEventListener() {},
      location: { ancestorOrigins: [HOST] },
    } as unknown as ChannelWindow
    const channel = startChannel({
      window: win,
      config: { appId: APP_ID, origins: [HOST] },
      handlers: {} as never,
      keyThumbprint: Promise.reject(new Error('IndexedDB is not available')),
    })
    await channel.announced
    expect(parent.postMessage).toHaveBeenCalledWith(
      { event: ENCLAVE_READY_EVENT, data: { key_thumbprint: null } },
      HOST,
    )
  })

  it('uses the referrer when ancestorOrigins is not available', async () => {
    const { posted, ready } = setup({
      origins: [HOST, 'https://other.example.com'],
      referrer: 'https://other.example.com/some/page?q=1',
    })
    await ready
    expect(posted.map((p) => p.targetOrigin)).toEqual(['https://other.example.com'])
  })

  it('announces nothing to a parent that is not an allowed origin (look-alike included)', async () => {
    const { posted, ready } = setup({ ancestorOrigins: ['https://app.example.com.evil.test'] })
    await ready
    expect(posted).toEqual([])
  })

  it('targets each allowed origin when nothing indicates the parent (the browser filters)', async () => {
    const origins = [HOST, 'http://localhost:5173']
    const { posted, ready } = setup({ origins })
    await ready
    expect(posted.map((p) => p.targetOrigin)).toEqual(origins)
    expect(posted.some((p) => p.targetOrigin === '*')).toBe(false)
  })

  it('stays silent when not framed (its parent is itself)', async () => {
    const calls: unknown[] = []
    let listener: ((e: MessageEvent) => void) | null = null
    const win = {
      postMessage: (...args: unknown[]) => calls.push(args),
      addEventListener: (_t: 'message', l: (e: MessageEvent) => void) => {
        listener = l
      },
      removeEventListener() {},
      location: { ancestorOrigins: [] as string[] },
      document: { referrer: '' },
    } as unknown as ChannelWindow & { postMessage: ParentWindow['postMessage'] }
    ;(win as { parent: unknown }).parent = win
    const handlers = createHandlers({
      appId: APP_ID,
      api: createServerApi({ appId: APP_ID, fetch: createFakeServer({ appId: APP_ID }).fetch }),
      store: new MemoryDeviceShareStore(),
    })
    startChannel({
      window: win,
      config: { appId: APP_ID, origins: [HOST] },
      handlers,
      keyThumbprint: Promise.resolve(null),
    })
    ;(listener as ((e: MessageEvent) => void) | null)?.({
      data: { id: '1', event: 'latchkey:clear', data: {} },
      origin: HOST,
      source: win,
    } as unknown as MessageEvent)
    await settle()
    expect(calls).toEqual([])
  })
})

describe('message checks (security bar 46)', () => {
  it('answers a request from the exact allowed origin, to that origin', async () => {
    const { request } = setup()
    const answer = await request('latchkey:wallets:connect', connect)
    expect(answer.targetOrigin).toBe(HOST)
    expect(answer.message.event).toMatch(/^latchkey:wallets:connect:(result|error)$/)
  })

  it('answers to the origin of each request when the app allows several', async () => {
    const other = 'http://localhost:5173'
    const { request } = setup({ origins: [HOST, other] })
    const answer = await request('latchkey:clear', {}, { origin: other })
    expect(answer).toEqual({
      message: { id: 'req-1', event: 'latchkey:clear:result', data: {} },
      targetOrigin: other,
    })
  })

  it.each([
    ['a look-alike suffix', 'https://app.example.com.evil.test'],
    ['a prefix', 'https://app.example.co'],
    ['a trailing slash', 'https://app.example.com/'],
    ['another scheme', 'http://app.example.com'],
    ['another port', 'https://app.example.com:8443'],
    ['a different case', 'https://APP.example.com'],
    ['the null origin', 'null'],
    ['the wildcard', '*'],
  ])('ignores a message from %s', async (_name, origin) => {
    const { deliver, posted, ready } = setup({ ancestorOrigins: [HOST] })
    await ready
    posted.length = 0
    deliver({ id: '1', event: 'latchkey:clear', data: {} }, { origin })
    await settle()
    expect(posted).toEqual([])
  })

  it('ignores a message from the right origin but another window', async () => {
    const { deliver, posted, ready } = setup({ ancestorOrigins: [HOST] })
    await ready
    posted.length = 0
    deliver({ id: '1', event: 'latchkey:clear', data: {} }, { source: { postMessage() {} } })
    deliver({ id: '2', event: 'latchkey:clear', data: {} }, { source: null })
    await settle()
    expect(posted).toEqual([])
  })

  it('ignores malformed and unknown requests', async () => {
    const { deliver, posted, ready } = setup({ ancestorOrigins: [HOST] })
    await ready
    posted.length = 0
    deliver({ id: '1', event: 'latchkey:wallets:steal', data: {} })
    deliver({ event: 'latchkey:clear', data: {} })
    deliver({ id: '1', event: 'latchkey:wallets:connect', data: { entropy_id: '0x1' } })
    deliver('latchkey:clear')
    await settle()
    expect(posted).toEqual([])
  })

  it('never posts anything to "*"', async () => {
    const { request, posted } = setup()
    await request('latchkey:wallets:connect', connect)
    await request('latchkey:clear', {})
    expect(posted.length).toBeGreaterThan(0)
    expect(posted.every((p) => p.targetOrigin === HOST)).toBe(true)
  })
})

describe('readConfig', () => {
  function doc(text: string) {
    document.body.innerHTML = ''
    const script = document.createElement('script')
    script.type = 'application/json'
    script.id = 'latchkey-enclave-config'
    script.textContent = text
    document.body.appendChild(script)
    return document
  }

  it('reads the app id and keeps only exact origins', () => {
    const config = readConfig(
      doc(
        JSON.stringify({
          appId: APP_ID,
          origins: [
            HOST,
            'https://x.example/',
            '*',
            'https://x.example/path',
            'http://localhost:3000',
          ],
        }),
      ),
    )
    expect(config).toEqual({ appId: APP_ID, origins: [HOST, 'http://localhost:3000'] })
  })

  it('refuses a missing or bad config', () => {
    expect(() => readConfig(doc(''))).toThrow()
    expect(() => readConfig(doc('{"appId":"x","origins":[]}'))).toThrow()
  })
})
