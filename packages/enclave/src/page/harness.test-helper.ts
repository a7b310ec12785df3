import { createCloudKeyStore } from '../cloud/index.ts'
import { createServerApi, type FetchLike } from './api.ts'
import { type Channel, type ChannelWindow, startChannel } from './channel.ts'
import { loadPageDeviceKey } from './device-key.ts'
import { MemoryDeviceKeyStore } from './device-key-store.ts'
import { createHandlers } from './handlers.ts'
import { ENCLAVE_ORIGIN } from './proof.test-helper.ts'
import { MemoryDeviceShareStore } from './store.ts'
import type { WarmKeys } from './warm-keys.ts'

export const APP_ID = 'abcdefghijklmnopqrstuvwxy'
export const HOST = 'https://app.example.com'

/** A message the page posted: what, and to which target origin. */
export interface Posted {
  message: {
    id?: string
    event: string
    data?: unknown
    error?: { code: string; message: string; details?: unknown; retry_after?: number }
  }
  targetOrigin: string
}

/**
 * The page in a fake frame: a parent window that records what the page posts
 * to it, and a way to deliver a message event (with any source and origin).
 */
export function createHarness(options: {
  fetch: FetchLike
  origins?: string[]
  ancestorOrigins?: string[]
  referrer?: string
  store?: MemoryDeviceShareStore
  /** This browser's device keys (default: a fresh one, as on a new device). */
  keyStore?: MemoryDeviceKeyStore
  /** `fetch` for the Google Drive / iCloud clients (tests pass Node's). */
  cloudFetch?: FetchLike
  /** The page's warm keys (default: the handlers' own, watching happy-dom's document). */
  warmKeys?: WarmKeys
}) {
  const posted: Posted[] = []
  const waiters = new Map<string, (p: Posted) => void>()
  const parent = {
    postMessage(message: Posted['message'], targetOrigin: string) {
      const entry = { message, targetOrigin }
      posted.push(entry)
      if (message.id) waiters.get(message.id)?.(entry)
    },
  }
  let listener: ((event: MessageEvent) => void) | null = null
  const win: ChannelWindow = {
    parent,
    addEventListener: (_type, l) => {
      listener = l
    },
    removeEventListener: () => {
      listener = null
    },
    location: options.ancestorOrigins
      ? { ancestorOrigins: Object.assign([...options.ancestorOrigins]) }
      : {},
    document: { referrer: options.referrer ?? '' },
  }
  const store = options.store ?? new MemoryDeviceShareStore()
  const keyStore = options.keyStore ?? new MemoryDeviceKeyStore()
  const key = loadPageDeviceKey(keyStore, APP_ID)
  const config = { appId: APP_ID, origins: options.origins ?? [HOST] }
  const handlers = createHandlers({
    appId: APP_ID,
    api: createServerApi({
      appId: APP_ID,
      fetch: options.fetch,
      proof: key.signProof,
      origin: ENCLAVE_ORIGIN,
    }),
    store,
    ...(options.warmKeys ? { warmKeys: options.warmKeys } : {}),
    ...(options.cloudFetch
      ? { cloudKeyStore: (access) => createCloudKeyStore(access, { fetch: options.cloudFetch }) }
      : {}),
  })
  const channel: Channel = startChannel({
    window: win,
    config,
    handlers,
    keyThumbprint: key.thumbprint,
  })
  let counter = 0

  function deliver(data: unknown, init: { origin?: string; source?: unknown } = {}) {
    listener?.({
      data,
      origin: init.origin ?? HOST,
      source: 'source' in init ? init.source : parent,
    } as unknown as MessageEvent)
  }

  /** Sends a request as the host would, and waits for the answer. */
  function request(event: string, data: unknown, init: { origin?: string } = {}) {
    const id = `req-${++counter}`
    const answer = new Promise<Posted>((resolve) => waiters.set(id, resolve))
    deliver({ id, event, data }, init)
    return answer
  }

  return {
    posted,
    parent,
    win,
    store,
    keyStore,
    channel,
    deliver,
    request,
    ready: channel.announced,
    key,
  }
}

/** Lets queued handlers run (for "nothing happened" assertions). */
export const settle = () => new Promise((resolve) => setTimeout(resolve, 20))
