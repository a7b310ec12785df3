import { StorageKey } from '@latchkey/protocol/constants'
import type { KeyValueStorage } from './storage.ts'

/** Login method names of spec 01 §3. */
export type LoginMethod =
  | 'email'
  | 'sms'
  | 'google'
  | 'twitter'
  | 'discord'
  | 'github'
  | 'spotify'
  | 'instagram'
  | 'tiktok'
  | 'line'
  | 'linkedin'
  | 'apple'
  | 'farcaster'
  | 'telegram'
  | 'wallet'
  | 'passkey'
  /** Cross-app login through another app on the server (docs/cross-app.md). */
  | 'cross_app'

const key = (appId: string) => StorageKey.recentLoginMethod.replace('{appId}', appId)

/** The method this browser last logged in to this app with (the landing screen's "Recent" chip). */
export function getRecentLoginMethod(storage: KeyValueStorage, appId: string): LoginMethod | null {
  return (storage.get(key(appId)) as LoginMethod | null) ?? null
}

export function setRecentLoginMethod(storage: KeyValueStorage, appId: string, method: LoginMethod) {
  storage.set(key(appId), method)
}
