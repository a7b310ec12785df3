import { type CrossAppLoginReturnType, openCrossAppPopup, toLatchkeyError } from '@latchkey/core'
import { SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { formatUserMessage } from '@latchkey/protocol/errors'
import { useEffect, useRef, useState } from 'react'
import { AlertIcon, CheckIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import type { CrossAppLoginRequest } from './request.ts'

export interface CrossAppScreenProps {
  request: CrossAppLoginRequest
  /** Logged in (before the 1.4 s close). */
  onDone(result: CrossAppLoginReturnType): void
  onClose(): void
}

type State =
  | { status: 'connecting'; name: string | null }
  | { status: 'success'; name: string }
  | { status: 'failed'; message: string }

/**
 * 'Connecting to {app}' while the provider's popup is open, then
 * 'Successfully connected with {app}' and a close after 1.4 s, or
 * 'Authentication failed' with the spec's message and Retry (spec 03 §2, §4,
 * §8 "Cross-app").
 */
export default function CrossAppScreen({ request, onDone, onClose }: CrossAppScreenProps) {
  const [state, setState] = useState<State>({ status: 'connecting', name: null })
  const [attempt, setAttempt] = useState<{ popup: typeof request.popup }>({ popup: request.popup })
  const close = useRef(onClose)
  close.current = onClose
  const done = useRef(onDone)
  done.current = onDone
  const name = useRef<string | null>(null)
  // One run per attempt, also when React runs the effect twice (StrictMode).
  const runs = useRef(new WeakMap<object, Promise<CrossAppLoginReturnType>>())

  useEffect(() => {
    let live = true
    let run = runs.current.get(attempt)
    if (!run) {
      run = request.run(attempt.popup, (details) => {
        name.current = details.name
        setState((s) =>
          s.status === 'connecting' ? { status: 'connecting', name: details.name } : s,
        )
      })
      runs.current.set(attempt, run)
    }
    run
      .then((result) => {
        if (!live) return
        done.current(result)
        setState({ status: 'success', name: result.provider.name })
      })
      .catch((cause) => {
        if (!live) return
        const error = toLatchkeyError(cause)
        const message = formatUserMessage(error.code, { app: name.current ?? 'app' })
        setState({ status: 'failed', message: message.title })
      })
    return () => {
      live = false
    }
  }, [request, attempt])

  useEffect(() => {
    if (state.status !== 'success') return
    const timer = setTimeout(() => close.current(), SUCCESS_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [state.status])

  if (state.status === 'success')
    return (
      <ScreenLayout
        title={`Successfully connected with ${state.name}`}
        media={
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="status">
          Logged in successfully
        </p>
      </ScreenLayout>
    )
  if (state.status === 'failed')
    return (
      <ScreenLayout
        title="Authentication failed"
        subtitle={state.message}
        media={
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="alert">
          {state.message}
        </p>
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-primary"
            autoFocus
            onClick={() => {
              setState({ status: 'connecting', name: name.current })
              setAttempt({ popup: openCrossAppPopup() })
            }}
          >
            Retry
          </button>
        </div>
      </ScreenLayout>
    )
  const title = state.name ? `Connecting to ${state.name}` : 'Connecting…'
  return (
    <ScreenLayout title={title} subtitle="Please check the pop-up window to continue.">
      <div className="lk-status">
        <Spinner label={title} />
      </div>
    </ScreenLayout>
  )
}
