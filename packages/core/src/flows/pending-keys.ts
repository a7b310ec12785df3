/*
 * Where a redirect login (OAuth, Telegram) keeps its pending state in this
 * tab's sessionStorage. A module of its own so a provider can check for a
 * pending return without loading the flows (a module is never split across
 * chunks).
 */

/** The pending OAuth login of `appId` (flows/oauth.ts). */
export const oauthPendingKey = (appId: string) => `latchkey:${appId}:oauth-login`

/** The pending Telegram login of `appId` (flows/telegram.ts). */
export const telegramPendingKey = (appId: string) => `latchkey:${appId}:telegram-login`
