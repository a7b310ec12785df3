import {
  createPasskeyFlow,
  type LatchkeyClient,
  type LatchkeyError,
  type PasskeyAction,
  type User,
} from '@latchkey/core'
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react'
import { PasskeyChoiceScreen } from './PasskeyChoiceScreen.tsx'
import { PasskeyStatusScreen } from './PasskeyStatusScreen.tsx'

export interface PasskeyLoginProps {
  client: LatchkeyClient
  /** 'link' adds a passkey to the logged-in user; 'login' logs in or, if allowed, signs up. */
  intent: 'login' | 'link'
  /** Log in existing users only: no 'Create new account', mode `no-signup`. */
  disableSignup: boolean
  /** `loginConfig.passkeysForSignupEnabled`: offer 'Create new account' first. */
  passkeysForSignup: boolean
  onDone(result: { user: User; isNewUser: boolean }): void
  /** A failure, for the flow to route (account not found, allowlist…); the screen shows it too. */
  onError(error: LatchkeyError): void
  onBack?: () => void
}

/**
 * The modal's passkey method (spec 01 §2 "Passkey"): the choice screen when
 * passkeys may create accounts, then the status screen of core's passkey
 * flow — which loads `@simplewebauthn/browser` only now, with this chunk.
 */
export default function PasskeyLogin({
  client,
  intent,
  disableSignup,
  passkeysForSignup,
  onDone,
  onError,
  onBack,
}: PasskeyLoginProps) {
  const offerChoice = intent === 'login' && passkeysForSignup && !disableSignup
  const [action, setAction] = useState<PasskeyAction | null>(
    intent === 'link' ? 'link' : offerChoice ? null : 'login',
  )
  const flow = useMemo(() => createPasskeyFlow(client, { disableSignup }), [client, disableSignup])
  const state = useSyncExternalStore(flow.subscribe, flow.getState, flow.getState)
  const callbacks = useRef({ onDone, onError })
  callbacks.current = { onDone, onError }

  // The prompt opens as soon as the action is known; leaving the screen dismisses it.
  useEffect(() => {
    if (!action) return
    void flow[action]()
    return () => flow.reset()
  }, [flow, action])

  useEffect(() => {
    if (state.status === 'done')
      callbacks.current.onDone({ user: state.user, isNewUser: state.isNewUser })
    if (state.status === 'error') callbacks.current.onError(state.error)
  }, [state])

  if (!action)
    return (
      <PasskeyChoiceScreen
        onSignup={() => setAction('signup')}
        onLogin={() => setAction('login')}
        onBack={onBack}
      />
    )
  return (
    <PasskeyStatusScreen
      state={state}
      action={action}
      onRetry={() => void flow.retry()}
      onSignup={offerChoice ? () => setAction('signup') : undefined}
      onBack={offerChoice ? () => setAction(null) : onBack}
    />
  )
}
