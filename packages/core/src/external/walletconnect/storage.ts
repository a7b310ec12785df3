/**
 * Where the WalletConnect client keeps its relay key and its session, as
 * strings (`localStorage` has this shape). Methods may answer at once or
 * with a promise; a missing key is `null` (or `undefined`).
 */
export interface WalletConnectStorage {
  getItem(key: string): Promise<string | null | undefined> | string | null | undefined
  setItem(key: string, value: string): Promise<void> | void
  removeItem(key: string): Promise<void> | void
}

/** A storage that lives as long as the page (where there is no `localStorage`; tests). */
export function memoryStorage(): WalletConnectStorage {
  const items = new Map<string, string>()
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  }
}

/** `localStorage` in browsers, else memory (server rendering, workers, Node). */
export function defaultStorage(): WalletConnectStorage {
  try {
    const local = globalThis.localStorage
    if (local) return local
  } catch {
    // Access denied (sandboxed iframe, storage blocked): the session lasts the page.
  }
  return memoryStorage()
}

/** A JSON record under `key`, or null when missing or unreadable. */
export async function readJson<T>(storage: WalletConnectStorage, key: string): Promise<T | null> {
  const raw = await storage.getItem(key)
  if (typeof raw !== 'string') return null
  try {
    return JSON.parse(raw) as T
  } catch {
    return null
  }
}

export async function writeJson(
  storage: WalletConnectStorage,
  key: string,
  value: unknown,
): Promise<void> {
  await storage.setItem(key, JSON.stringify(value))
}
