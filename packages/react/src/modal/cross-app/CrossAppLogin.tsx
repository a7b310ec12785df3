import {
  type CrossAppLoginReturnType,
  type CrossAppPopup,
  type LatchkeyClient,
  type LatchkeyError,
  loginWithCrossApp,
  openCrossAppPopup,
  toLatchkeyError,
} from '@latchkey/core'
import { formatUserMessage } from '@latchkey/protocol/errors'
import { useEffect, useRef, useState } from 'react'
import { ConnectionStatus } from '../components/ConnectionStatus.tsx'
import { useChrome } from '../components/chrome.ts'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'

export interface CrossAppLoginProps {
  client: LatchkeyClient
  appId: string
  /** The popup the landing click opened (the first attempt's). */
  popup: CrossAppPopup | null
  intent: 'login' | 'link'
  /** False once the dialog closes: the wait for the provider ends, and its popup closes. */
  open?: boolean
  onDone(result: CrossAppLoginReturnType): void
  /** Gate errors (allowlist, user limit, no sign-up…) for the flow's outcome screens. */
  onError(error: LatchkeyError): void
  /** A failure shown here with Retry (not one caused by closing the dialog), and its message. */
  onFailure?(error: LatchkeyError, message: string): void
  /** Absent: no Back (the hook's login opens on this screen and offers no other method). */
  onBack?(): void
}

/** One try: its popup, and what ends its wait when the dialog closes. */
const newAttempt = (popup: CrossAppPopup | null) => ({ popup, abort: new AbortController() })

/** Codes the login flow has outcome screens for; the rest show here with Retry. */
const OUTCOME_CODES = new Set([
  'USER_DOES_NOT_EXIST',
  'ALLOWLIST_REJECTED',
  'USER_LIMIT_REACHED',
  'ACCOUNT_TRANSFER_REQUIRED',
  'ACCOUNT_ALREADY_LINKED',
])

/**
 * The login flow's cross-app step (spec 03 §2, §4 "Cross-app auth"):
 * 'Connecting to {app}' (check the pop-up) while the provider's popup is
 * open; on success the flow's 'Successfully connected with {app}' and
 * post-login steps; a failure shows 'Authentication failed' with the spec's
 * message and Retry, which opens a new popup within its click.
 */
export function CrossAppLogin({
  client,
  appId,
  popup,
  intent,
  open = true,
  onDone,
  onError,
  onFailure,
  onBack,
}: CrossAppLoginProps) {
  const [name, setName] = useState<string | null>(null)
  const [failure, setFailure] = useState<string | null>(null)
  // The standalone panel is never 'open': only a dialog can be closed.
  const closed = Boolean(useChrome().onClose) && !open
  const [attempt, setAttempt] = useState(() => newAttempt(popup))
  const handlers = useRef({ onDone, onError, onFailure, closed })
  handlers.current = { onDone, onError, onFailure, closed }
  const nameRef = useRef<string | null>(null)
  // One run per attempt, also when React runs the effect twice (StrictMode).
  const runs = useRef(new WeakMap<object, Promise<CrossAppLoginReturnType>>())

  useEffect(() => {
    let live = true
    let run = runs.current.get(attempt)
    if (!run) {
      run = loginWithCrossApp(client, {
        appId,
        intent,
        popup: attempt.popup,
        signal: attempt.abort.signal,
        onConnecting: (details) => {
          nameRef.current = details.name
          setName(details.name)
        },
      })
      runs.current.set(attempt, run)
    }
    run.then(
      (result) => {
        if (live) handlers.current.onDone(result)
      },
      (cause) => {
        if (!live) return
        const error = toLatchkeyError(cause)
        if (OUTCOME_CODES.has(error.code)) return handlers.current.onError(error)
        const message = formatUserMessage(error.code, { app: nameRef.current ?? 'app' }).title
        setFailure(message)
        if (!handlers.current.closed) handlers.current.onFailure?.(error, message)
      },
    )
    return () => {
      live = false
    }
  }, [client, appId, intent, attempt])

  // Closing the dialog ends the wait (not in a cleanup: StrictMode runs those on a live screen).
  useEffect(() => {
    if (closed) attempt.abort.abort()
  }, [closed, attempt])

  if (failure)
    return (
      <ConnectionStatus
        name={name ?? 'app'}
        status="failure"
        detail={failure}
        onBack={onBack}
        onRetry={() => {
          setFailure(null)
          setAttempt(newAttempt(openCrossAppPopup()))
        }}
      />
    )
  const title = name ? `Connecting to ${name}` : 'Connecting…'
  return (
    <ScreenLayout
      title={title}
      subtitle="Please check the pop-up window to continue."
      onBack={onBack}
    >
      <div className="lk-status">
        <Spinner label={title} />
      </div>
    </ScreenLayout>
  )
}
