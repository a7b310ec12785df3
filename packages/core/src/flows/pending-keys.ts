import { sessionStore } from '../tab-storage.ts'
import { oauthReturnInUrl } from './oauth-state.ts'

/*
 * Where a redirect flow (OAuth, Telegram, cloud recovery) keeps its pending state in this
 * tab's sessionStorage. A module of its own so a provider can check for a
 * pending return without loading the flows (a module is never split across
 * chunks).
 */

/** The pending OAuth login of `appId` (flows/oauth.ts). */
export const oauthPendingKey = (appId: string) => `latchkey:${appId}:oauth-login`

/** The pending Telegram login of `appId` (flows/telegram.ts). */
export const telegramPendingKey = (appId: string) => `latchkey:${appId}:telegram-login`

/** The pending cloud-recovery consent of `appId` (wallets/cloudRecovery.ts). */
export const cloudPendingKey = (appId: string) => `latchkey:${appId}:cloud-recovery`

/**
 * This tab left for a social provider or Telegram and may be on its way back,
 * or the address carries a social login's return (spec 01 §2: read and
 * removed even when this tab has no pending login for it): cheap enough for a
 * provider to call on every mount.
 */
export function redirectLoginPending(appId: string): boolean {
  const store = sessionStore()
  return (
    store?.getItem(oauthPendingKey(appId)) != null ||
    store?.getItem(telegramPendingKey(appId)) != null ||
    oauthReturnInUrl()
  )
}
