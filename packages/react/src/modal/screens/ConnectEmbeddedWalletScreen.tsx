import { LatchkeyError, toLatchkeyError } from '@latchkey/core'
import { errorMessages } from '@latchkey/protocol/errors'
import type { CloudRecoveryProvider, RecoveryMethod } from '@latchkey/protocol/schemas'
import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { ConnectWalletStep } from '../../wallet-requests.ts'
import { ShieldIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { CloudRecoveryScreen } from './CloudRecoveryScreen.tsx'
import { FailureScreen } from './FailureScreen.tsx'
import { RecoverWalletScreen } from './RecoverWalletScreen.tsx'

export interface ConnectEmbeddedWalletScreenProps {
  step: ConnectWalletStep
  /**
   * Already known from a RECOVERY_REQUIRED answer (the sign screen's): ask
   * for what this method needs at once instead of connecting again.
   */
  needs?: RecoveryMethod | null
  /** The wallet is usable on this device (and the minimum display time passed): go on. */
  onConnected(): void
  /** What closing the modal now means for the action that waits (null once connected). */
  onExitChange(error: LatchkeyError | null): void
  onClose(): void
}

type Status =
  | { status: 'connecting' }
  | { status: 'connected' }
  | { status: 'password' }
  | { status: 'cloud'; provider: CloudRecoveryProvider }
  | { status: 'failed'; error: LatchkeyError }

/** What a wallet that needs recovery asks of the user; null when nothing here can recover it. */
function askFor(method: RecoveryMethod | null | undefined): Status | null {
  if (method === 'user-passcode') return { status: 'password' }
  if (method === 'google-drive' || method === 'icloud') return { status: 'cloud', provider: method }
  return null
}

/** The exit each state gives the action waiting on the screen (spec 02 §8, spec 03 §4). */
function exitOf(status: Status): LatchkeyError {
  if (status.status === 'failed') return status.error
  if (status.status === 'password' || status.status === 'cloud')
    return new LatchkeyError('RECOVERY_EXITED')
  return new LatchkeyError('EMBEDDED_WALLET_CONNECT_EXITED')
}

/**
 * Spec 03 "Connect wallet": a loader while the embedded wallet connects
 * through the wallet proxy, then it navigates on (`onConnected`). A wallet
 * that needs recovery recovers automatically with automatic recovery, asks
 * 'Enter your password' for a password, and 'Recover with {provider}' for a
 * cloud backup. A failure shows 'Something went wrong. We’re on it. Please
 * try again later.' and Close. Closing while it connects rejects the action
 * with 'User exited before wallet could be connected'; `minimumDisplayMs`
 * keeps the loader up that long (1 s from export).
 */
export function ConnectEmbeddedWalletScreen({
  step,
  needs,
  onConnected,
  onExitChange,
  onClose,
}: ConnectEmbeddedWalletScreenProps) {
  const [status, setStatus] = useState<Status>(() => askFor(needs) ?? { status: 'connecting' })
  const [shownLongEnough, setShownLongEnough] = useState(!step.minimumDisplayMs)
  const callbacks = useRef({ onConnected, onExitChange })
  callbacks.current = { onConnected, onExitChange }
  const started = useRef(false)

  useEffect(() => {
    if (started.current || status.status !== 'connecting') return
    started.current = true
    step.connect().then(
      () => setStatus({ status: 'connected' }),
      (e: unknown) => {
        const error = toLatchkeyError(e)
        const details = error.details as { recovery_method?: RecoveryMethod } | undefined
        const ask = error.code === 'RECOVERY_REQUIRED' ? askFor(details?.recovery_method) : null
        setStatus(ask ?? { status: 'failed', error })
      },
    )
  }, [step, status.status])

  useEffect(() => {
    if (!step.minimumDisplayMs) return
    const timer = setTimeout(() => setShownLongEnough(true), step.minimumDisplayMs)
    return () => clearTimeout(timer)
  }, [step.minimumDisplayMs])

  // A layout effect: what closing means is set before the screen is painted,
  // so a Close clicked at once already rejects with it.
  useLayoutEffect(() => {
    if (status.status !== 'connected' || !shownLongEnough) {
      callbacks.current.onExitChange(exitOf(status))
      return
    }
    callbacks.current.onExitChange(null)
    callbacks.current.onConnected()
  }, [status, shownLongEnough])

  if (status.status === 'password')
    return (
      <RecoverWalletScreen
        recover={step.recover}
        onRecovered={() => setStatus({ status: 'connected' })}
      />
    )
  if (status.status === 'cloud') {
    const { provider } = status
    // The consent leaves the page; the recovery finishes when the user is back (react/cloud.ts).
    return (
      <CloudRecoveryScreen
        request={{
          screen: 'cloud-recovery',
          provider,
          action: 'recover',
          startConsent: () => step.startCloudRecovery(provider),
        }}
        onDone={() => {}}
        onClose={onClose}
      />
    )
  }
  if (status.status === 'failed')
    return (
      <FailureScreen message={errorMessages.EMBEDDED_WALLET_CONNECT_FAILED} onClose={onClose} />
    )
  return (
    <ScreenLayout
      title="Connecting your wallet"
      subtitle="This only takes a moment."
      media={
        <StatusIcon tone="neutral">
          <ShieldIcon />
        </StatusIcon>
      }
    >
      <Spinner label="Connecting your wallet" />
    </ScreenLayout>
  )
}
