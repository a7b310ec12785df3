import { type FarcasterSigner, LatchkeyError, toLatchkeyError } from '@latchkey/core'
import { SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { type ErrorCode, errorMessages, type UserMessage } from '@latchkey/protocol/errors'
import { useEffect, useRef, useState } from 'react'
import { AlertIcon, CheckIcon, CopyIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { useCopyFeedback } from '../components/useCopyFeedback.ts'
import { QrCode } from '../methods/wallet/QrCode.tsx'
import { isMobileDevice } from '../mobile.ts'
import type { FarcasterSignerRequest } from './request.ts'

export interface FarcasterSignerScreenProps {
  request: FarcasterSignerRequest
  /** The signer is approved (before the 1.4 s close). */
  onApproved(signer: FarcasterSigner): void
  /** Closes the modal (after the success, 1.4 s). */
  onClose(): void
}

type State =
  | { status: 'starting' }
  | { status: 'waiting'; url: string }
  | { status: 'success' }
  | { status: 'failed'; code: ErrorCode; message: UserMessage }

const TITLE = 'Add a signer to Farcaster'

/** Spec 03 §8 "Farcaster": every failure is one of its three messages. */
function failureTitle(code: ErrorCode): string {
  if (code === 'FARCASTER_SIGNER_REJECTED') return errorMessages.FARCASTER_SIGNER_REJECTED.title
  if (code === 'FARCASTER_TIMEOUT') return errorMessages.FARCASTER_TIMEOUT.title
  return errorMessages.FARCASTER_SIGNER_CONNECT_FAILED.title
}

/**
 * 'Add a signer to Farcaster' (spec 03 §2, §4): the approval link as a QR
 * code with a copy button, or an 'Open Farcaster app' button on mobile; the
 * request is polled every 2 s; approved shows success and closes after
 * 1.4 s; revoked shows 'Request rejected'; after 5 minutes 'The request timed
 * out. Try again.'; no key (or no Farcaster account) 'Connect failed'.
 */
export default function FarcasterSignerScreen({
  request,
  onApproved,
  onClose,
}: FarcasterSignerScreenProps) {
  const [state, setState] = useState<State>({ status: 'starting' })
  const [round, setRound] = useState(0)
  const { copy, copied, confirmIcon } = useCopyFeedback()
  const close = useRef(onClose)
  close.current = onClose

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` starts again on Retry
  useEffect(() => {
    const abort = new AbortController()
    const { signal } = abort
    ;(async () => {
      try {
        let signer = await request.init()
        if (signal.aborted) return
        if (signer.status !== 'approved') {
          if (signer.status === 'revoked' || !signer.signerApprovalUrl)
            throw new LatchkeyError('FARCASTER_SIGNER_CONNECT_FAILED')
          setState({ status: 'waiting', url: signer.signerApprovalUrl })
          signer = await request.wait(signer.publicKey, signal)
          if (signal.aborted) return
        }
        onApproved(signer)
        setState({ status: 'success' })
      } catch (cause) {
        if (signal.aborted) return
        const error = toLatchkeyError(cause)
        setState({ status: 'failed', code: error.code, message: error.userMessage })
      }
    })()
    return () => abort.abort()
  }, [request, round])

  useEffect(() => {
    if (state.status !== 'success') return
    const timer = setTimeout(() => close.current(), SUCCESS_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [state.status])

  if (state.status === 'success')
    return (
      <ScreenLayout
        title="Success!"
        subtitle="The signer was added to your Farcaster account."
        media={
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="status">
          Signer added
        </p>
      </ScreenLayout>
    )
  if (state.status === 'failed') {
    const title = failureTitle(state.code)
    return (
      <ScreenLayout
        title={title}
        media={
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="alert">
          {title}
        </p>
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-primary"
            autoFocus
            onClick={() => {
              setState({ status: 'starting' })
              setRound((n) => n + 1)
            }}
          >
            Retry
          </button>
        </div>
      </ScreenLayout>
    )
  }
  if (state.status === 'starting')
    return (
      <ScreenLayout title={TITLE}>
        <div className="lk-status">
          <Spinner label="Preparing the Farcaster signer" />
        </div>
      </ScreenLayout>
    )
  const mobile = isMobileDevice()
  return (
    <ScreenLayout
      title={TITLE}
      subtitle={
        mobile ? 'Open the Farcaster app to approve.' : "Scan with your phone's camera to continue."
      }
    >
      {mobile ? (
        <div className="lk-actions">
          <a className="lk-btn lk-btn-primary" href={state.url}>
            Open Farcaster app
          </a>
        </div>
      ) : (
        <div className="lk-stack">
          <div className="lk-qr-wrap">
            <QrCode value={state.url} size="large" label="Farcaster signer QR code" />
          </div>
          <div className="lk-fund-address">
            <code data-testid="lk-farcaster-signer-url">{state.url}</code>
            <button
              type="button"
              className="lk-icon-btn"
              aria-label={copied ? 'Copied' : 'Copy link'}
              onClick={() => copy(state.url)}
            >
              {confirmIcon ? <CheckIcon /> : <CopyIcon />}
            </button>
          </div>
        </div>
      )}
    </ScreenLayout>
  )
}
