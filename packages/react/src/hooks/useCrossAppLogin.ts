import { LatchkeyError, openCrossAppPopup } from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LatchkeyInstance, LoginResult } from '../instance.ts'

/**
 * Logs in with an account of provider app `appId` through the login modal
 * (spec 03 §4 "Cross-app auth", spec 01 §4 "After any login success"): the
 * flow opens on 'Connecting to {app}', and a success goes on to the app's
 * post-login steps (terms, embedded-wallet creation) like the landing's
 * `latchkey:{appId}` row. Settles when the modal closes: with the login's
 * result once the flow has completed; otherwise rejected with the last
 * failure the flow reported (a failure shown with Retry is not the end), or
 * 'User canceled flow' when there was none. A newer `login()` or wallet
 * screen ends it the same way. Call it in a click: the popup opens first.
 *
 * @example
 * const { user } = await loginThroughModal(instance, PROVIDER_APP_ID)
 */
export function loginThroughModal(instance: LatchkeyInstance, appId: string): Promise<LoginResult> {
  if (instance.client.session.getState().status === 'authenticated')
    return Promise.reject(new LatchkeyError('ALREADY_LOGGED_IN'))
  // Opened within the click, before anything awaits (popup blockers).
  const popup = openCrossAppPopup()
  return new Promise<LoginResult>((resolve, reject) => {
    let settled = false
    let lastFailure: LatchkeyError | null = null
    const unsubscribe: Array<() => void> = []
    const settle = (end: () => void) => {
      if (settled) return
      settled = true
      for (const off of unsubscribe) off()
      end()
    }
    unsubscribe.push(
      instance.onLoginEvent((event) => {
        if (event.type === 'error') lastFailure = event.error ?? new LatchkeyError(event.code)
        else settle(() => resolve(event.result))
      }),
    )
    if (instance.openLogin({ crossApp: { appId, popup } }) !== 'opened') {
      popup?.close()
      return settle(() => reject(new LatchkeyError('ALREADY_LOGGED_IN')))
    }
    const { attempt } = instance.getUiState()
    unsubscribe.push(
      instance.subscribeUi(() => {
        const ui = instance.getUiState()
        if (ui.open && ui.attempt === attempt && !ui.walletRequest) return
        // The flow closes the modal just before it reports 'complete', and a screen
        // reports what closing it meant (terms declined, recovery exited) once the
        // close has rendered: the next task sees both.
        setTimeout(() =>
          settle(() => reject(lastFailure ?? new LatchkeyError('CROSS_APP_CANCELED'))),
        )
      }),
    )
  })
}

/**
 * `loginWithCrossAppAccount` of `useCrossAppAccounts`, on its own: resolves
 * with the login once the modal's flow, post-login steps included, is done.
 *
 * @example
 * const login = useCrossAppLogin()
 * <button onClick={() => login({ appId: PROVIDER_APP_ID }).then(({ user }) => greet(user))} />
 */
export function useCrossAppLogin(): (options: { appId: string }) => Promise<LoginResult> {
  const instance = useLatchkeyInstance()
  return useCallback(
    ({ appId }: { appId: string }) => loginThroughModal(instance, appId),
    [instance],
  )
}
