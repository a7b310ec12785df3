import {
  type LatchkeyClient,
  type LatchkeyError,
  linkFarcaster,
  loginWithFarcaster,
  startFarcasterLogin,
  toLatchkeyError,
  type User,
  waitForFarcaster,
} from '@latchkey/core'
import { type ErrorCode, errorMessages, type UserMessage } from '@latchkey/protocol/errors'
import { useEffect, useState } from 'react'
import { ConnectionStatus } from '../../components/ConnectionStatus.tsx'
import { AlertIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { isMobileDevice } from '../../mobile.ts'
import { QrCode } from '../wallet/QrCode.tsx'

export interface FarcasterLoginProps {
  client: LatchkeyClient
  intent: 'login' | 'link'
  disableSignup: boolean
  onDone(result: { user: User; isNewUser: boolean }): void
  /** A failure the flow may route (spec 02 §8), with the fid tried once the user approved. */
  onError(error: LatchkeyError, account?: { farcaster_id: number }): void
  onBack?: () => void
}

type State =
  | { status: 'starting' }
  | { status: 'waiting'; connectUri: string }
  | { status: 'verifying' }
  /** `message`: the error's user message (the server's words where spec 01 §8 shows them). */
  | { status: 'failed'; code: ErrorCode; message: UserMessage }

/**
 * Sign In With Farcaster (spec 01 "Farcaster sign-in"): the server opens a
 * relay channel; the user scans its QR code (a deep link on mobile) and
 * approves in their Farcaster app; the channel is polled every 2 s, and
 * after 2 minutes the screen offers 'The request timed out. Try again.'.
 */
export default function FarcasterLogin({
  client,
  intent,
  disableSignup,
  onDone,
  onError,
  onBack,
}: FarcasterLoginProps) {
  const [state, setState] = useState<State>({ status: 'starting' })
  const [round, setRound] = useState(0)

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` restarts the channel on Retry
  useEffect(() => {
    const abort = new AbortController()
    const { signal } = abort
    let fid: number | undefined
    ;(async () => {
      try {
        const channel = await startFarcasterLogin(client)
        if (signal.aborted) return
        setState({ status: 'waiting', connectUri: channel.connectUri })
        const proof = await waitForFarcaster(client, channel.channelToken, { signal })
        if (signal.aborted) return
        fid = proof.fid
        setState({ status: 'verifying' })
        const body = {
          channelToken: channel.channelToken,
          message: proof.message,
          signature: proof.signature,
          fid: proof.fid,
        }
        if (intent === 'link') {
          const user = await linkFarcaster(client, body)
          if (!signal.aborted) onDone({ user, isNewUser: false })
        } else {
          const result = await loginWithFarcaster(client, {
            ...body,
            mode: disableSignup ? 'no-signup' : 'login-or-sign-up',
          })
          if (!signal.aborted) onDone(result)
        }
      } catch (cause) {
        if (signal.aborted) return
        const error = toLatchkeyError(cause)
        onError(error, fid === undefined ? undefined : { farcaster_id: fid })
        setState({ status: 'failed', code: error.code, message: error.userMessage })
      }
    })()
    return () => abort.abort()
  }, [client, intent, disableSignup, round])

  const retry = () => {
    setState({ status: 'starting' })
    setRound((n) => n + 1)
  }

  if (state.status === 'verifying') return <ConnectionStatus name="Farcaster" status="verifying" />
  if (state.status === 'failed') {
    const { message } = state
    const timedOut = state.code === 'FARCASTER_TIMEOUT'
    return (
      <ScreenLayout
        title={timedOut ? message.title : errorMessages.AUTHENTICATION_FAILED.title}
        subtitle={timedOut || state.code === 'AUTHENTICATION_FAILED' ? undefined : message.title}
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
          {message.retryable && (
            <button type="button" className="lk-btn lk-btn-primary" onClick={retry} autoFocus>
              Retry
            </button>
          )}
        </div>
      </ScreenLayout>
    )
  }
  if (state.status === 'starting')
    return (
      <ScreenLayout title="Sign in with Farcaster" onBack={onBack}>
        <div className="lk-status">
          <Spinner label="Preparing Farcaster sign-in" />
        </div>
      </ScreenLayout>
    )
  const mobile = isMobileDevice()
  return (
    <ScreenLayout
      title="Sign in with Farcaster"
      subtitle={
        mobile ? 'Open the Farcaster app to approve.' : "Scan with your phone's camera to continue."
      }
      onBack={onBack}
    >
      {!mobile && (
        <div className="lk-qr-wrap">
          <QrCode value={state.connectUri} size="large" label="Farcaster sign-in QR code" />
        </div>
      )}
      <div className="lk-actions">
        <a
          className={`lk-btn ${mobile ? 'lk-btn-primary' : 'lk-btn-secondary'}`}
          href={state.connectUri}
        >
          {mobile ? 'Open Farcaster' : 'Open in app'}
        </a>
      </div>
    </ScreenLayout>
  )
}
