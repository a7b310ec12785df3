import type { PasskeyAction, PasskeyFlowState } from '@latchkey/core'
import { NO_PASSKEY_HINT } from '@latchkey/protocol/errors'
import { AlertIcon, CheckIcon, KeyIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'

export interface PasskeyStatusScreenProps {
  /** The passkey flow's state (core `createPasskeyFlow`, or `useLoginWithPasskey().state`). */
  state: PasskeyFlowState
  /** The action about to start, for the title while the state is still 'initial'. */
  action?: PasskeyAction
  /** Offered as 'Retry' on a retryable error. */
  onRetry?: () => void
  /**
   * Where the app lets passkeys create accounts: offered as 'Create new
   * account' when a passkey login found none (or was cancelled).
   */
  onSignup?: () => void
  onBack?: () => void
}

/** What the screen is about, per action, while it is under way. */
const TITLES: Record<PasskeyAction, string> = {
  login: 'Log in with a passkey',
  signup: 'Create new account',
  link: 'Add new passkey',
}

/** The spinner's words per step (spec 01 §4 "Passkey"). */
const STEPS = {
  initial: 'Preparing passkey request',
  'generating-challenge': 'Preparing passkey request',
  'awaiting-passkey': 'Waiting for your passkey',
  'submitting-response': 'Verifying passkey',
} as const

const DONE = { login: "You're logged in.", signup: "You're logged in.", link: 'Passkeys updated' }

/**
 * Spec 01 §2 "Passkey" status screen: loading while the challenge is fetched,
 * the browser's prompt is open and the answer is verified; success; or the
 * error's wording (spec 01 §8 "Passkey") with Retry when it is retryable. A
 * login the browser refused may mean there is no passkey here at all: the
 * screen says so, and offers 'Create new account' where the app allows it
 * (issue 16, 4b).
 *
 * @example
 * <PasskeyStatusScreen state={flowState} onRetry={() => flow.retry()} onBack={back} />
 */
export function PasskeyStatusScreen({
  state,
  action = 'login',
  onRetry,
  onSignup,
  onBack,
}: PasskeyStatusScreenProps) {
  if (state.status === 'error') {
    const message = state.error.userMessage
    // Browsers answer "no passkey here" and "cancelled" alike (NotAllowedError).
    const noPasskey = state.action === 'login' && state.error.code === 'PASSKEY_FAILED'
    const signup = noPasskey ? onSignup : undefined
    const hint = noPasskey ? NO_PASSKEY_HINT[signup ? 'signup' : 'login'] : undefined
    return (
      <ScreenLayout
        title={message.title}
        subtitle={message.detail ?? hint}
        onBack={onBack}
        media={
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="alert">
          {message.title}
        </p>
        <div className="lk-actions">
          {signup && (
            <button type="button" className="lk-btn lk-btn-primary" onClick={signup} autoFocus>
              Create new account
            </button>
          )}
          {state.retryable && onRetry && (
            <button
              type="button"
              className={`lk-btn ${signup ? 'lk-btn-secondary' : 'lk-btn-primary'}`}
              onClick={onRetry}
              autoFocus={!signup}
            >
              Retry
            </button>
          )}
        </div>
      </ScreenLayout>
    )
  }
  if (state.status === 'done')
    return (
      <ScreenLayout
        title="Success!"
        subtitle={DONE[state.action]}
        media={
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="status">
          {DONE[state.action]}
        </p>
      </ScreenLayout>
    )
  const title = TITLES[state.status === 'initial' ? action : state.action]
  return (
    <ScreenLayout
      title={title}
      subtitle={
        state.status === 'awaiting-passkey'
          ? 'Follow the prompt from your browser or device.'
          : undefined
      }
      onBack={onBack}
      media={
        <StatusIcon tone="neutral">
          <KeyIcon />
        </StatusIcon>
      }
    >
      <div className="lk-status">
        <Spinner label={STEPS[state.status]} />
      </div>
    </ScreenLayout>
  )
}
