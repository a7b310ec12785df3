import { LatchkeyError } from '@latchkey/core'
import type { CardProvider } from '@latchkey/protocol/schemas'
import { useEffect, useRef, useState } from 'react'
import { CheckIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import type { CardOnrampStatus, CoinbaseOnrampStatus, FundWalletRequest } from './request.ts'

/**
 * What the status screen shows (spec 03 §4 "Card on-ramp status"; Coinbase:
 * §2 "'In Progress', success"). `checking` is Coinbase's 'In Progress' once
 * its popup is closed: the status is still being read (a purchase may have
 * landed), and there is no Coinbase to go back to.
 */
export type OnrampDisplay = 'in-progress' | 'checking' | 'processing' | 'completed'

const GO_BACK: Record<CardProvider, string> = {
  moonpay: 'Go back to MoonPay to finish funding your account.',
  coinbase: 'Go back to Coinbase to finish funding your account.',
}

export const ONRAMP_TEXT: Record<OnrampDisplay, (provider: CardProvider) => [string, string]> = {
  'in-progress': (provider) => ['In Progress', GO_BACK[provider]],
  // Coinbase only: its popup is closed, so not 'Go back to Coinbase…'.
  checking: () => ['In Progress', 'Checking your purchase with Coinbase.'],
  processing: () => [
    'Processing payment',
    'This may take up to a few hours. You will receive an email when the purchase is complete.',
  ],
  completed: () => [
    "You've funded your account!",
    'It may take a few minutes for the assets to appear.',
  ],
}

/** Spec 03 §4: completed, waitingAuthorization (not on a card: that is pending), anything else. */
const moonpayDisplay = (status: CardOnrampStatus): OnrampDisplay =>
  status === 'completed'
    ? 'completed'
    : status === 'waitingAuthorization'
      ? 'processing'
      : 'in-progress'

/**
 * Coinbase (spec 03 §2: 'In Progress', success): 'In Progress' in the popup,
 * still 'In Progress' while a closed popup's status is read (never
 * 'Processing payment': nothing says a payment was made), then success.
 */
const coinbaseDisplay = (status: CoinbaseOnrampStatus): OnrampDisplay =>
  status === 'success' ? 'completed' : status === 'pending-after-flow' ? 'checking' : 'in-progress'

export interface OnrampStatusScreenProps {
  request: FundWalletRequest
  provider: CardProvider
  /** MoonPay's external transaction id, or Coinbase's partner user id. */
  id: string
  popup: { readonly closed: boolean }
  /** Back to the chooser: with the failure to show, or null (Coinbase popup closed 3 times). */
  onReturn(error: LatchkeyError | null): void
  /** Completed: the success event. */
  onFunded(): void
  onContinue(): void
}

/**
 * Spec 03 "Card on-ramp status" ('Fund account'): the provider's status,
 * polled (MoonPay every 3 s after its start delay, Coinbase every 1.5 s):
 * 'In Progress', 'Processing payment' (MoonPay only), or 'You've funded
 * your account!' with Continue. A failure returns to the chooser with its
 * message.
 */
export function OnrampStatusScreen({
  request,
  provider,
  id,
  popup,
  onReturn,
  onFunded,
  onContinue,
}: OnrampStatusScreenProps) {
  const [display, setDisplay] = useState<OnrampDisplay>('in-progress')
  const callbacks = useRef({ onReturn, onFunded })
  callbacks.current = { onReturn, onFunded }

  useEffect(() => {
    const controller = new AbortController()
    const { signal } = controller
    if (provider === 'moonpay')
      request.watchMoonpay(
        id,
        (status) => {
          if (signal.aborted) return
          if (status === 'failed' || status === 'serviceFailure')
            return callbacks.current.onReturn(new LatchkeyError('FUNDING_PROVIDER_FAILED'))
          if (status === 'completed') callbacks.current.onFunded()
          setDisplay(moonpayDisplay(status))
        },
        signal,
      )
    else
      request.watchCoinbase(
        id,
        popup,
        (status) => {
          if (signal.aborted) return
          if (status === 'error')
            return callbacks.current.onReturn(new LatchkeyError('FUNDING_FAILED'))
          if (status === 'closed') return callbacks.current.onReturn(null)
          if (status === 'success') callbacks.current.onFunded()
          setDisplay(coinbaseDisplay(status))
        },
        signal,
      )
    return () => controller.abort()
  }, [request, provider, id, popup])

  const [heading, text] = ONRAMP_TEXT[display](provider)
  return (
    <ScreenLayout title="Fund account" onBack={() => onReturn(null)}>
      <div className="lk-fund-status" role="status">
        {display === 'completed' ? (
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        ) : (
          <Spinner />
        )}
        <h3>{heading}</h3>
        <p>{text}</p>
      </div>
      {(display === 'processing' || display === 'completed') && (
        <div className="lk-actions">
          <button type="button" className="lk-btn lk-btn-primary" onClick={onContinue}>
            Continue
          </button>
        </div>
      )}
    </ScreenLayout>
  )
}
