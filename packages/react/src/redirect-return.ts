import { takeOAuthReturn, takeTelegramRedirect } from '@latchkey/core'
import type { LatchkeyInstance } from './store.ts'

/**
 * Back from a login the modal started on a provider's page (spec 01 §2: the
 * return's parameters are read and removed): reopens the modal to finish it,
 * or — for a social return this tab has no pending login for — to say so
 * (OAUTH_LOGIN_EXPIRED). Loaded only when this tab has such a login pending
 * or the address carries a social return, so social and Telegram code stays
 * out of the provider's first chunk.
 */
export function resumeRedirectLogin(instance: LatchkeyInstance): void {
  const oauth = takeOAuthReturn(instance.client, { ui: 'modal' })
  if (oauth) {
    instance.resumeLogin({ kind: 'oauth', ret: oauth })
    return
  }
  const telegram = takeTelegramRedirect(instance.client, { ui: 'modal' })
  if (telegram) instance.resumeLogin({ kind: 'telegram', ...telegram })
}
