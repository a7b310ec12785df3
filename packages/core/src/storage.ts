/** The small key-value interface the client keeps its tokens and ids in. */
export interface KeyValueStorage {
  get(key: string): string | null
  set(key: string, value: string): void
  remove(key: string): void
  /**
   * Calls `listener` with each key another tab of this origin changed (null:
   * it cleared everything); returns what stops it. Only storages shared
   * between tabs have it (`createLocalStorage` in a window): it is how a
   * session follows the app's other tabs (docs/client.md "Sessions across tabs").
   */
  watch?(listener: (key: string | null) => void): () => void
}

/** An in-memory store: for tests, SSR, and browsers that refuse localStorage. */
export function createMemoryStorage(): KeyValueStorage {
  const map = new Map<string, string>()
  return {
    get: (key) => map.get(key) ?? null,
    set: (key, value) => void map.set(key, value),
    remove: (key) => void map.delete(key),
  }
}

/** `window.localStorage`, falling back to memory where it is unavailable (private modes, SSR). */
export function createLocalStorage(): KeyValueStorage {
  try {
    const ls = globalThis.localStorage
    const probe = '__latchkey_probe__'
    ls.setItem(probe, probe)
    ls.removeItem(probe)
    return {
      get: (key) => ls.getItem(key),
      set: (key, value) => ls.setItem(key, value),
      remove: (key) => ls.removeItem(key),
      watch: (listener) => watchStorageEvents(ls, listener),
    }
  } catch {
    return createMemoryStorage()
  }
}

/**
 * The window's `storage` events for `area`: the browser fires them in every
 * other document of the origin when one changes it (never in the one that
 * did). Without a window (a worker, SSR) there are none.
 */
function watchStorageEvents(area: Storage, listener: (key: string | null) => void): () => void {
  const target = globalThis as Partial<Pick<Window, 'addEventListener' | 'removeEventListener'>>
  if (typeof target.addEventListener !== 'function' || !target.removeEventListener) return () => {}
  const onStorage = (event: StorageEvent) => {
    // sessionStorage changes are another area's.
    if (event.storageArea && event.storageArea !== area) return
    listener(event.key)
  }
  target.addEventListener('storage', onStorage)
  return () => target.removeEventListener?.('storage', onStorage)
}

/** Reads, writes and clears the first-party refresh-marker cookie (spec 01 §3, 30 days). */
export interface CookieJar {
  get(name: string): string | null
  set(name: string, value: string, maxAgeSeconds: number): void
  remove(name: string): void
}

export function createDocumentCookies(): CookieJar {
  const doc = (globalThis as { document?: Document }).document
  if (!doc) {
    const memory = createMemoryStorage()
    return { get: memory.get, set: (n, v) => memory.set(n, v), remove: memory.remove }
  }
  const secure = globalThis.location?.protocol === 'https:' ? '; Secure' : ''
  return {
    get(name) {
      for (const part of doc.cookie.split('; ')) {
        const eq = part.indexOf('=')
        if (part.slice(0, eq) === name) return decodeURIComponent(part.slice(eq + 1))
      }
      return null
    },
    set(name, value, maxAgeSeconds) {
      doc.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Strict${secure}`
    },
    remove(name) {
      doc.cookie = `${name}=; Max-Age=0; Path=/; SameSite=Strict${secure}`
    },
  }
}
