import { LatchkeyError } from '@latchkey/core'
import { SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import type { RecoveryMethod } from '@latchkey/protocol/schemas'
import { useEffect, useRef, useState } from 'react'
import { recoveryMethodOf } from '../../hooks/signing.ts'
import { typedDataJson } from '../../hooks/useSignTypedData.ts'
import type { SignMessagePayload, SignMessageRequest } from '../../store.ts'
import { CheckIcon, PenIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { ConnectEmbeddedWalletScreen } from './ConnectEmbeddedWalletScreen.tsx'

export interface SignMessageScreenProps {
  request: SignMessageRequest
  /** The signature is in; the modal's promise resolves with it when the modal closes. */
  onSigned(result: unknown): void
  /** 1.4 s after success: close the modal. */
  onDone(): void
  /** 'Not now': close without signing (the user's rejection). */
  onCancel(): void
  /**
   * What closing the modal means while the wallet is being recovered first
   * (the connect-wallet screen's exit); null again once it is.
   */
  onExitChange?(error: LatchkeyError | null): void
}

export const SIGN_MESSAGE_DEFAULTS = {
  title: 'Sign message',
  description: 'Signing this message will not cost you any fees.',
  buttonText: 'Sign and continue',
} as const

// Errors the catalogue words for signing; anything else is 'Failed to sign message'.
const signingErrorCode = (error: unknown): ErrorCode =>
  error instanceof LatchkeyError && error.code !== 'INTERNAL_ERROR'
    ? error.code
    : 'SIGN_MESSAGE_FAILED'

function decodeText(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return `0x${Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')}`
  }
}

/** The details box: the text itself, or typed data's primary type and message. */
function MessageDetails({ payload }: { payload: SignMessagePayload }) {
  if (payload.method === 'eth_signTypedData_v4')
    return (
      <div className="lk-details" data-testid="lk-sign-details">
        <p className="lk-details-label">{payload.data.primaryType}</p>
        <pre className="lk-details-text">{typedDataJson(payload.data.message, 2)}</pre>
      </div>
    )
  const text = payload.method === 'personal_sign' ? payload.data : decodeText(payload.data)
  return (
    <div className="lk-details" data-testid="lk-sign-details">
      <pre className="lk-details-text">{text}</pre>
    </div>
  )
}

/**
 * Spec 03 "Sign message": the message in a scrollable box (at most 310 px
 * high), 'Sign and continue' → 'Signing...' → 'Success', then the modal
 * closes 1.4 s later. A failure shows the catalogue's message and 'Retry'.
 * The signing itself is the request's `sign()` (core); this only renders.
 */
export function SignMessageScreen({
  request,
  onSigned,
  onDone,
  onCancel,
  onExitChange,
}: SignMessageScreenProps) {
  const [status, setStatus] = useState<'idle' | 'signing' | 'success' | 'recovering'>('idle')
  // What the wallet's recovery on this device asks of the user (the RECOVERY_REQUIRED answer).
  const [needs, setNeeds] = useState<RecoveryMethod | null>(null)
  const [error, setError] = useState<ErrorCode | null>(null)
  const done = useRef(onDone)
  done.current = onDone
  const { uiOptions } = request

  const sign = async () => {
    setStatus('signing')
    setError(null)
    try {
      const result = await request.sign()
      onSigned(result)
      setStatus('success')
    } catch (e) {
      // A password or cloud-backed wallet on a new device: recover it (spec 03 "Connect wallet"), then sign.
      if (e instanceof LatchkeyError && e.code === 'RECOVERY_REQUIRED' && request.recovery) {
        setNeeds(recoveryMethodOf(e))
        setStatus('recovering')
        return
      }
      setError(signingErrorCode(e))
      setStatus('idle')
    }
  }

  useEffect(() => {
    if (status !== 'success') return
    const timer = setTimeout(() => done.current(), SUCCESS_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [status])

  if (status === 'recovering' && request.recovery)
    return (
      <ConnectEmbeddedWalletScreen
        step={request.recovery}
        needs={needs}
        onConnected={() => void sign()}
        onExitChange={(error) => onExitChange?.(error)}
        onClose={onCancel}
      />
    )

  const message = error ? (errorMessages[error] ?? errorMessages.SIGN_MESSAGE_FAILED) : null
  const buttonText =
    status === 'signing'
      ? 'Signing...'
      : status === 'success'
        ? 'Success'
        : error
          ? 'Retry'
          : (uiOptions.buttonText ?? SIGN_MESSAGE_DEFAULTS.buttonText)

  return (
    <ScreenLayout
      title={uiOptions.title ?? SIGN_MESSAGE_DEFAULTS.title}
      subtitle={uiOptions.description ?? SIGN_MESSAGE_DEFAULTS.description}
      media={
        uiOptions.iconUrl ? (
          <div className="lk-logo">
            <img src={uiOptions.iconUrl} alt="" />
          </div>
        ) : (
          <StatusIcon tone={status === 'success' ? 'success' : 'neutral'}>
            {status === 'success' ? <CheckIcon /> : <PenIcon />}
          </StatusIcon>
        )
      }
    >
      <MessageDetails payload={request} />
      {message && (
        <p className="lk-alert" role="alert">
          {message.title}
          {message.detail ? ` ${message.detail}` : ''}
        </p>
      )}
      <div className="lk-actions">
        <button
          type="button"
          className="lk-btn lk-btn-primary"
          disabled={status !== 'idle'}
          aria-busy={status === 'signing'}
          onClick={() => void sign()}
        >
          {buttonText}
        </button>
        {uiOptions.isCancellable && (
          <button
            type="button"
            className="lk-btn lk-btn-secondary"
            disabled={status !== 'idle'}
            onClick={onCancel}
          >
            Not now
          </button>
        )}
      </div>
      {status === 'success' && (
        <p className="lk-visually-hidden" role="status">
          Message signed
        </p>
      )}
    </ScreenLayout>
  )
}
