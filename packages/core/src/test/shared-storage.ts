import type { SessionLock } from '../session.ts'
import type { KeyValueStorage } from '../storage.ts'

/**
 * One origin's localStorage as several tabs see it: a tab's write is a
 * `storage` event in every other tab (never in its own), delivered when the
 * test calls `deliver()`, as the browser delivers them in a later task.
 */
export function createSharedStorage() {
  const map = new Map<string, string>()
  const watchers = new Set<{ tab: number; listener: (key: string | null) => unknown }>()
  const queued: Array<{ from: number; key: string }> = []
  let tabs = 0
  return {
    /** A new tab's view of the storage. */
    tab(): KeyValueStorage {
      const id = ++tabs
      return {
        get: (key) => map.get(key) ?? null,
        set(key, value) {
          if (map.get(key) === value) return
          map.set(key, value)
          queued.push({ from: id, key })
        },
        remove(key) {
          if (!map.delete(key)) return
          queued.push({ from: id, key })
        },
        watch(listener) {
          const watcher = { tab: id, listener }
          watchers.add(watcher)
          return () => watchers.delete(watcher)
        },
      }
    },
    /** The keys written since the last delivery, in order. */
    pending: () => queued.map((event) => event.key),
    /**
     * Delivers the queued events to the other tabs, one at a time, waiting
     * for what each tab does with one (and for the events that causes).
     */
    async deliver(): Promise<void> {
      while (queued.length > 0) {
        const event = queued.shift() as { from: number; key: string }
        for (const watcher of [...watchers])
          if (watcher.tab !== event.from) await watcher.listener(event.key)
      }
    },
  }
}

/** A lock the tabs of one test share, as Web Locks are shared by an origin's tabs. */
export function createSharedLock(): SessionLock {
  let tail: Promise<unknown> = Promise.resolve()
  return (task) => {
    const run = tail.then(task)
    tail = run.catch(() => undefined)
    return run
  }
}
