import { toLatchkeyError } from '@latchkey/core'
import {
  CLOUD_RECOVERY_PROVIDER_NAMES as cloudRecoveryProviderNames,
  SUCCESS_CLOSE_DELAY_MS,
  WALLET_CREATED_CLOSE_DELAY_MS,
} from '@latchkey/protocol/constants'
import { type ErrorCode, formatUserMessage } from '@latchkey/protocol/errors'
import { useEffect, useRef, useState } from 'react'
import type { CloudRecoveryRequest } from '../../store.ts'
import { AlertIcon, CheckIcon, CloudIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

export interface CloudRecoveryScreenProps {
  request: CloudRecoveryRequest
  /** The backup or recovery succeeded (the modal's promise resolves on close). */
  onDone(): void
  /** Close, or after the success delay. */
  onClose(): void
  /** Back to the method list ('Update backup method'), when there is one. */
  onBack?: () => void
}

type Status = 'consent' | 'redirecting' | 'running' | 'success' | 'greeting' | 'failed'

// Errors whose own wording is more useful than the provider message (spec 02 §8).
const KEEP_OWN_MESSAGE = new Set<ErrorCode>(['OAUTH_STATE_MISMATCH', 'NOT_AUTHENTICATED'])

/**
 * Cloud backup and recovery (spec 02): 'Back up with Google Drive' /
 * 'Recover with iCloud' asks to continue to the provider; after the provider
 * sent the user back it runs the request, then shows success for 1.4 s
 * and closes, or (post-login creation) goes on to the wallet-created greeting
 * for 2.5 s (spec 02 §2); or it shows the failure with Try again.
 */
export function CloudRecoveryScreen({
  request,
  onDone,
  onClose,
  onBack,
}: CloudRecoveryScreenProps) {
  const provider = cloudRecoveryProviderNames[request.provider]
  const failureCode: ErrorCode =
    request.action === 'recover' ? 'CLOUD_RECOVERY_FAILED' : 'CLOUD_BACKUP_FAILED'
  const [status, setStatus] = useState<Status>(
    request.failure ? 'failed' : request.run ? 'running' : 'consent',
  )
  const [error, setError] = useState<ErrorCode | null>(request.failure ?? null)
  const callbacks = useRef({ onDone, onClose })
  callbacks.current = { onDone, onClose }
  const started = useRef(false)

  useEffect(() => {
    if (!request.run || request.failure || started.current) return
    started.current = true
    request.run().then(
      () => {
        setStatus('success')
        callbacks.current.onDone()
      },
      (e: unknown) => {
        const code = toLatchkeyError(e).code
        setError(KEEP_OWN_MESSAGE.has(code) ? code : failureCode)
        setStatus('failed')
      },
    )
  }, [request, failureCode])

  // Spec 02 §2: "On success the message shows for 1400 ms, then the modal closes or goes
  // to the wallet-created screen."
  useEffect(() => {
    if (status !== 'success' && status !== 'greeting') return
    const next = status === 'success' && request.greeting ? () => setStatus('greeting') : null
    const timer = setTimeout(
      next ?? (() => callbacks.current.onClose()),
      status === 'greeting' ? WALLET_CREATED_CLOSE_DELAY_MS : SUCCESS_CLOSE_DELAY_MS,
    )
    return () => clearTimeout(timer)
  }, [status, request.greeting])

  const consent = async () => {
    setStatus('redirecting')
    setError(null)
    try {
      await request.startConsent()
    } catch (e) {
      const code = toLatchkeyError(e).code
      setError(KEEP_OWN_MESSAGE.has(code) ? code : failureCode)
      setStatus('failed')
    }
  }

  const verb = request.action === 'recover' ? 'Recover' : 'Back up'
  const cloud = (
    <StatusIcon tone="neutral">
      <CloudIcon />
    </StatusIcon>
  )

  if (status === 'consent' || status === 'redirecting')
    return (
      <ScreenLayout
        title={`${verb} with ${provider}`}
        subtitle={
          request.action === 'recover'
            ? `Your wallet's backup is in your ${provider}. Sign in to the account that holds it to use your wallet on this device.`
            : `A key that restores your wallet will be saved in your ${provider}, in a folder only this app can see. You'll confirm with ${provider} next.`
        }
        media={cloud}
        onBack={onBack}
      >
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-primary"
            disabled={status === 'redirecting'}
            aria-busy={status === 'redirecting'}
            onClick={() => void consent()}
          >
            {status === 'redirecting' ? 'Redirecting...' : `Continue with ${provider}`}
          </button>
        </div>
      </ScreenLayout>
    )

  if (status === 'running')
    return (
      <ScreenLayout
        title={
          request.action === 'recover' ? `Recovering with ${provider}` : `Backing up to ${provider}`
        }
        subtitle="This only takes a moment."
        media={cloud}
      >
        <Spinner
          label={request.action === 'recover' ? 'Recovering your wallet' : 'Backing up your wallet'}
        />
      </ScreenLayout>
    )

  if (status === 'success' || status === 'greeting') {
    const greeting = status === 'greeting' ? request.greeting : undefined
    const title = greeting
      ? greeting.isNewUser
        ? `Welcome${greeting.appName ? ` to ${greeting.appName}` : ''}`
        : 'All set!'
      : 'Success'
    const subtitle = greeting
      ? greeting.isNewUser
        ? 'Your wallet is ready.'
        : 'Your account is secured.'
      : request.action === 'recover'
        ? 'Your wallet is ready on this device.'
        : `Your wallet is backed up to ${provider}.`
    return (
      <ScreenLayout
        title={title}
        subtitle={subtitle}
        media={
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="status">
          {greeting ? 'Wallet ready' : title}
        </p>
      </ScreenLayout>
    )
  }

  // Spec 02 §2: failures read '{Recovery|Back up} with {provider} unsuccessful' (a refused
  // consent exchange, RECOVERY_OAUTH_FAILED, too); a few keep their own, more useful words.
  const shown = error && KEEP_OWN_MESSAGE.has(error) ? error : failureCode
  const message = formatUserMessage(shown, { provider })
  return (
    <ScreenLayout
      title={message.title}
      subtitle={message.detail}
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
          <button type="button" className="lk-btn lk-btn-primary" onClick={() => void consent()}>
            Try again
          </button>
        )}
        <button type="button" className="lk-btn lk-btn-secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </ScreenLayout>
  )
}
