import { ENCLAVE_WARM_KEY_HIDDEN_MS, MFA_VERIFICATION_TTL_MS } from '@latchkey/protocol/constants'
import { canonicalEntropyId } from '@latchkey/protocol/keys'
import { base64urlToBytes } from '../encoding.ts'
import { PageError } from './errors.ts'
import type { WalletKeys } from './wallet-keys.ts'

/** Time and timers, injectable for tests (default: `Date.now` and the global timers). */
export interface WarmKeyClock {
  now(): number
  setTimeout(run: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** The slice of `document` the cache watches: its visibility. */
export interface VisibilitySource {
  readonly visibilityState: string
  addEventListener(type: 'visibilitychange', listener: () => void): void
  removeEventListener(type: 'visibilitychange', listener: () => void): void
}

/**
 * The slice of a `BroadcastChannel` the cache uses: the enclave pages of
 * this app in the browser's other tabs, to end their warm keys too.
 */
export interface WarmKeyBroadcast {
  postMessage(message: unknown): void
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
  removeEventListener(type: 'message', listener: (event: { data: unknown }) => void): void
}

/** What one enclave page tells the others when it ends its warm keys. */
const END_MESSAGE = 'latchkey:warm-keys:end'

export interface WarmKeysOptions {
  /**
   * The other enclave pages of this app (main.ts: a `BroadcastChannel`
   * named for the app): {@link WarmKeys.endEverywhere} reaches them.
   */
  broadcast?: WarmKeyBroadcast | null
  clock?: WarmKeyClock
  /** The page's document (none: visibility is not watched). */
  document?: VisibilitySource | null
  /** How long the page may stay hidden before every key is dropped (default ENCLAVE_WARM_KEY_HIDDEN_MS). */
  hiddenMs?: number
}

/** The rebuilt keys of one wallet for one session, until the session's MFA window ends. */
export interface WarmKeys {
  /** The kept keys of `entropyId` for the session of `token`, or null. They stay the cache's: do not wipe them. */
  get(token: string, entropyId: string): WalletKeys | null
  /**
   * Keeps `keys` for the session of `token` until `until` (epoch ms, the
   * server's `warm_until`). True when kept: the cache then owns and wipes
   * them. False (the caller wipes them) for a null or past `until`, a token
   * without a session id, or a page hidden too long.
   */
  keep(token: string, entropyId: string, keys: WalletKeys, until: number | null): boolean
  /** Wipes and forgets every kept key of this page. */
  dropAll(): void
  /**
   * `dropAll()` here and in this app's enclave pages in other tabs (logout,
   * MFA clear, a refused key route: facts about the session, not the tab).
   */
  endEverywhere(): void
  readonly size: number
  /** Drops everything and stops watching the document. */
  stop(): void
}

/**
 * The session id (`sid`) of an access token, read without verifying it: a
 * cache key only (the server checks the token on every call it gets). Null
 * for anything that is not a JWT with a string `sid`, and for a token whose
 * `exp` has passed, so an expired token never reaches a warm key.
 */
export function sessionIdOf(token: string, now: number): string | null {
  try {
    const payload = JSON.parse(
      new TextDecoder().decode(base64urlToBytes(token.split('.')[1] ?? '')),
    )
    if (typeof payload?.sid !== 'string' || payload.sid.length === 0) return null
    if (typeof payload.exp === 'number' && payload.exp * 1000 <= now) return null
    return payload.sid
  } catch {
    return null
  }
}

/** A refusal that ends every warm key: MFA_REQUIRED, or any 401 from the server. */
export const isWarmKeyRefusal = (error: unknown): boolean =>
  error instanceof PageError && (error.code === 'MFA_REQUIRED' || error.status === 401)

const realClock: WarmKeyClock = {
  now: () => Date.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
}

interface Entry {
  sessionId: string
  keys: WalletKeys
  until: number
  timer: unknown
}

/**
 * The enclave's warm keys (docs/mfa.md "Warm keys"): within this session's
 * MFA window, a rebuilt wallet key stays in this page's memory so the next
 * signature needs no auth share. Keys are kept per (session id, entropy id)
 * and only for one session at a time: keeping a key for a new session drops
 * the others, and a token of another session never finds one.
 *
 * A key is wiped at the window's end (a timer, and checked again on every
 * read, as a background tab's timers may run late), when the page has been
 * hidden for `hiddenMs`, and on `dropAll()` / `endEverywhere()` (logout,
 * MFA clear, account deletion, a refused key route: handlers.ts; the latter
 * also in this app's enclave pages in other tabs). The window is capped at
 * MFA_VERIFICATION_TTL_MS from now, so a page clock behind the server's
 * cannot stretch it.
 *
 * @example
 * const warm = createWarmKeys({ document })
 * const keys = warm.get(token, entropyId) ?? (await rebuild())
 */
export function createWarmKeys(options: WarmKeysOptions = {}): WarmKeys {
  const clock = options.clock ?? realClock
  const doc = options.document ?? null
  const broadcast = options.broadcast ?? null
  const hiddenMs = options.hiddenMs ?? ENCLAVE_WARM_KEY_HIDDEN_MS
  const entries = new Map<string, Entry>()
  let hiddenSince: number | null = doc?.visibilityState === 'hidden' ? clock.now() : null
  let hiddenTimer: unknown = null

  const keyOf = (sessionId: string, entropyId: string) =>
    `${sessionId}\n${canonicalEntropyId(entropyId)}`

  function drop(key: string) {
    const entry = entries.get(key)
    if (!entry) return
    entries.delete(key)
    clock.clearTimeout(entry.timer)
    entry.keys.wipe()
  }

  function dropAll() {
    for (const key of [...entries.keys()]) drop(key)
    if (hiddenTimer !== null) clock.clearTimeout(hiddenTimer)
    hiddenTimer = null
  }

  const hiddenTooLong = () => hiddenSince !== null && clock.now() - hiddenSince >= hiddenMs

  /** While hidden with keys kept: a timer for the moment the page has been hidden too long. */
  function armHiddenTimer() {
    if (hiddenSince === null || hiddenTimer !== null || entries.size === 0) return
    hiddenTimer = clock.setTimeout(
      () => {
        hiddenTimer = null
        dropAll()
      },
      Math.max(0, hiddenSince + hiddenMs - clock.now()),
    )
  }

  function onVisibilityChange() {
    if (doc?.visibilityState === 'hidden') {
      hiddenSince ??= clock.now()
      armHiddenTimer()
      return
    }
    // Back in view: a page frozen in the background may never have run its timer.
    if (hiddenTooLong()) dropAll()
    hiddenSince = null
    if (hiddenTimer !== null) clock.clearTimeout(hiddenTimer)
    hiddenTimer = null
  }
  doc?.addEventListener('visibilitychange', onVisibilityChange)
  const onBroadcast = (event: { data: unknown }) => {
    if (event.data === END_MESSAGE) dropAll()
  }
  broadcast?.addEventListener('message', onBroadcast)

  return {
    get(token, entropyId) {
      if (entries.size === 0) return null
      if (hiddenTooLong()) {
        dropAll()
        return null
      }
      const sessionId = sessionIdOf(token, clock.now())
      if (sessionId === null) return null
      const key = keyOf(sessionId, entropyId)
      const entry = entries.get(key)
      if (!entry) return null
      if (clock.now() >= entry.until) {
        drop(key)
        return null
      }
      return entry.keys
    },

    keep(token, entropyId, keys, until) {
      const now = clock.now()
      if (until === null || until <= now || hiddenTooLong()) return false
      const sessionId = sessionIdOf(token, now)
      if (sessionId === null) return false
      // One session at a time: a key of another session never outlives the switch.
      for (const [key, entry] of entries) if (entry.sessionId !== sessionId) drop(key)
      const key = keyOf(sessionId, entropyId)
      const existing = entries.get(key)
      if (existing?.keys === keys) {
        clock.clearTimeout(existing.timer)
        entries.delete(key)
      } else drop(key)
      const end = Math.min(until, now + MFA_VERIFICATION_TTL_MS)
      const timer = clock.setTimeout(() => {
        if (entries.get(key)?.keys === keys) drop(key)
      }, end - now)
      entries.set(key, { sessionId, keys, until: end, timer })
      armHiddenTimer()
      return true
    },

    dropAll,

    endEverywhere() {
      dropAll()
      try {
        broadcast?.postMessage(END_MESSAGE)
      } catch {
        // A closed channel: the other tabs' keys still end with their windows.
      }
    },

    get size() {
      return entries.size
    },

    stop() {
      doc?.removeEventListener('visibilitychange', onVisibilityChange)
      broadcast?.removeEventListener('message', onBroadcast)
      dropAll()
    },
  }
}

/**
 * Wraps each handler so the warm keys end where docs/mfa.md "Warm keys"
 * says, in this tab and the app's other enclave tabs: before any event of
 * `dropBefore` runs (logout, MFA clear, removing a factor, account
 * deletion: whatever the server then answers), and after any handler failed
 * with a refusal ({@link isWarmKeyRefusal}), whose session or window is over.
 */
export function dropWarmKeysAround<H extends object>(
  handlers: H,
  warm: WarmKeys,
  dropBefore: ReadonlySet<string>,
): H {
  const wrapped: Record<string, (data: unknown) => Promise<unknown>> = {}
  for (const [event, handler] of Object.entries(handlers) as [
    string,
    (data: unknown) => Promise<unknown>,
  ][]) {
    wrapped[event] = async (data) => {
      if (dropBefore.has(event)) warm.endEverywhere()
      try {
        return await handler(data)
      } catch (error) {
        if (isWarmKeyRefusal(error)) warm.endEverywhere()
        throw error
      }
    }
  }
  return wrapped as H
}
