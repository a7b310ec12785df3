import { type LatchkeyError, toLatchkeyError, type User } from '@latchkey/core'
import { useEffect, useRef, useState } from 'react'
import { AlertIcon, CheckIcon, KeyIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { DELEGATION_CLOSE_DELAY_MS, type DelegatedActionsRequest } from './request.ts'

export interface DelegatedActionsScreenProps {
  request: DelegatedActionsRequest
  /** Accepted and done: the hook resolves with the updated user once the modal closes. */
  onDone(user: User): void
  /** Accepted and failed: the hook rejects with this once the modal closes. */
  onFailed(error: LatchkeyError): void
  /** 'Not now' / 'Deny' (the decline), and 2.5 s after the result. */
  onClose(): void
}

type Phase = 'prompt' | 'working' | 'success' | 'error'

const short = (address: string) =>
  address.length > 14 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address

/** Spec 03 §2 "Delegated actions": the screen's words. */
const TEXTS = {
  'delegate-wallet': {
    title: 'Enable offline access',
    accept: 'Accept',
    decline: 'Not now',
  },
  'revoke-wallets': {
    title: 'Revoke offline access to wallet',
    accept: 'Confirm',
    decline: 'Deny',
  },
} as const

/**
 * The delegation consent and revoke screens (spec 03 §2, §4 "Delegation
 * consent and revoke": prompt, then success or error; the modal closes after
 * 2.5 s). Accept / Confirm runs the request's operation with a spinner on
 * the button; then 'Success!' or 'Something went wrong. Please try again.';
 * either way the modal closes 2.5 s later. 'Not now' / 'Deny' close at once.
 */
export default function DelegatedActionsScreen({
  request,
  onDone,
  onFailed,
  onClose,
}: DelegatedActionsScreenProps) {
  const [phase, setPhase] = useState<Phase>('prompt')
  const close = useRef(onClose)
  close.current = onClose
  const texts = TEXTS[request.screen]

  useEffect(() => {
    if (phase !== 'success' && phase !== 'error') return
    const timer = setTimeout(() => close.current(), DELEGATION_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [phase])

  const accept = async () => {
    setPhase('working')
    try {
      const user =
        request.screen === 'delegate-wallet' ? await request.onDelegate() : await request.onRevoke()
      onDone(user)
      setPhase('success')
    } catch (cause) {
      onFailed(toLatchkeyError(cause))
      setPhase('error')
    }
  }

  if (phase === 'success' || phase === 'error') {
    const ok = phase === 'success'
    const title = ok ? 'Success!' : 'Something went wrong. Please try again.'
    return (
      <ScreenLayout
        title={title}
        media={
          <StatusIcon tone={ok ? 'success' : 'error'}>
            {ok ? <CheckIcon /> : <AlertIcon />}
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role={ok ? 'status' : 'alert'}>
          {title}
        </p>
      </ScreenLayout>
    )
  }

  const app = request.appName ?? 'This app'
  const working = phase === 'working'
  return (
    <ScreenLayout
      title={texts.title}
      subtitle={
        request.screen === 'delegate-wallet'
          ? `${app} will be able to use your wallet when you are not online. You can revoke this at any time.`
          : `${app} will no longer be able to use your wallet when you are not online.`
      }
      media={
        <StatusIcon tone="neutral">
          <KeyIcon />
        </StatusIcon>
      }
    >
      <div className="lk-stack">
        {request.screen === 'delegate-wallet' && (
          <div className="lk-details" data-testid="lk-delegate-wallet">
            <p className="lk-details-label">
              {request.chainType === 'ethereum' ? 'Ethereum wallet' : 'Solana wallet'}
            </p>
            <p className="lk-details-text" title={request.address}>
              {short(request.address)}
            </p>
          </div>
        )}
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-primary"
            disabled={working}
            aria-busy={working}
            onClick={() => void accept()}
          >
            {working ? (
              <>
                <Spinner size="sm" />
                {texts.accept}
              </>
            ) : (
              texts.accept
            )}
          </button>
          <button
            type="button"
            className="lk-btn lk-btn-secondary"
            disabled={working}
            onClick={onClose}
          >
            {texts.decline}
          </button>
        </div>
      </div>
    </ScreenLayout>
  )
}
