import { toLatchkeyError } from '@latchkey/core'
import { SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import type { CloudRecoveryProvider } from '@latchkey/protocol/schemas'
import { useEffect, useRef, useState } from 'react'
import type { SecureAccountRequest } from '../../store.ts'
import { AlertIcon, CheckIcon, LockIcon, ShieldIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { CloudRecoveryScreen } from './CloudRecoveryScreen.tsx'
import { isCloud, RecoveryMethodList } from './RecoveryMethodList.tsx'
import { SetPasswordScreen } from './SetPasswordScreen.tsx'

export interface SecureAccountScreenProps {
  request: SecureAccountRequest
  /** The method changed; the modal's promise resolves when it closes. */
  onDone(): void
  onClose(): void
}

type View =
  | { view: 'list' }
  | { view: 'splash' }
  | { view: 'password'; fromList?: boolean }
  | { view: 'automatic' }
  | { view: 'cloud'; provider: CloudRecoveryProvider }

/**
 * Spec 02 "Secure your account" / "Update backup method": backup to Google
 * Drive, iCloud, or set / reset a password (and, where the app allows it,
 * automatic recovery), with an info panel on why. The current method is not
 * offered again when it is a cloud one. Each choice opens its flow here. When
 * the app requires a password and offers nothing else, the 'Secure Your
 * Account' splash with 'Add password' comes first.
 */
export function SecureAccountScreen({ request, onDone, onClose }: SecureAccountScreenProps) {
  const [view, setView] = useState<View>(() =>
    // A password is the only choice the app requires: the 'Secure Your Account' splash.
    request.automatic && request.options.length === 1 && request.options[0] === 'user-passcode'
      ? { view: 'splash' }
      : { view: 'list' },
  )
  const toList = () => setView({ view: 'list' })
  // The current method is not offered again, except a password, which can be reset.
  const options = request.options.filter(
    (option) => option !== request.currentMethod || option === 'user-passcode',
  )

  switch (view.view) {
    case 'splash':
      return (
        <ScreenLayout
          title="Secure Your Account"
          subtitle="Add a password to protect your wallet. You'll need it to use your wallet on a new device."
          media={
            <StatusIcon tone="neutral">
              <LockIcon />
            </StatusIcon>
          }
        >
          <div className="lk-actions">
            <button
              type="button"
              className="lk-btn lk-btn-primary"
              onClick={() => setView({ view: 'password' })}
            >
              Add password
            </button>
          </div>
        </ScreenLayout>
      )
    case 'password':
      return (
        <SetPasswordScreen
          request={{
            screen: 'set-password',
            setPassword: request.setPassword,
            automatic: request.automatic,
          }}
          onSet={onDone}
          onClose={onClose}
          // Spec 02 §4: Back from the first step only when the user came from the choice.
          onBack={view.fromList ? toList : undefined}
        />
      )
    case 'automatic':
      return (
        <AutomaticRecovery
          setAutomatic={request.setAutomatic}
          onDone={onDone}
          onClose={onClose}
          onBack={toList}
        />
      )
    case 'cloud':
      return (
        <CloudRecoveryScreen
          request={{
            screen: 'cloud-recovery',
            provider: view.provider,
            action: 'backup',
            startConsent: () => request.startConsent(view.provider),
          }}
          onDone={onDone}
          onClose={onClose}
          onBack={options.length > 1 ? toList : undefined}
        />
      )
    case 'list':
      return (
        <RecoveryMethodList
          request={request}
          options={options}
          onPick={(option) =>
            setView(
              isCloud(option)
                ? { view: 'cloud', provider: option }
                : option === 'user-passcode'
                  ? { view: 'password', fromList: true }
                  : { view: 'automatic' },
            )
          }
        />
      )
  }
}

/** Spec 02 "Automatically secure your account": Confirm, then Success. */
function AutomaticRecovery({
  setAutomatic,
  onDone,
  onClose,
  onBack,
}: {
  setAutomatic(): Promise<unknown>
  onDone(): void
  onClose(): void
  onBack(): void
}) {
  const [status, setStatus] = useState<'confirm' | 'saving' | 'done' | 'failed'>('confirm')
  const [error, setError] = useState<ErrorCode | null>(null)
  const close = useRef(onClose)
  close.current = onClose

  useEffect(() => {
    if (status !== 'done') return
    const timer = setTimeout(() => close.current(), SUCCESS_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [status])

  const confirm = async () => {
    setStatus('saving')
    try {
      await setAutomatic()
      setStatus('done')
      onDone()
    } catch (e) {
      setError(toLatchkeyError(e).code)
      setStatus('failed')
    }
  }

  if (status === 'done')
    return (
      <ScreenLayout
        title="Success"
        subtitle="Your account is secured automatically."
        media={
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="status">
          Success
        </p>
      </ScreenLayout>
    )
  return (
    <ScreenLayout
      title="Automatically secure your account"
      subtitle="Your wallet will be restored automatically when you log in on a new device, with a recovery key this app's server holds. You won't need a password or a cloud backup."
      media={
        <StatusIcon tone={status === 'failed' ? 'error' : 'neutral'}>
          {status === 'failed' ? <AlertIcon /> : <ShieldIcon />}
        </StatusIcon>
      }
      onBack={onBack}
    >
      {status === 'failed' && error && (
        <p className="lk-alert" role="alert">
          {errorMessages[error].title}
        </p>
      )}
      <div className="lk-actions">
        <button
          type="button"
          className="lk-btn lk-btn-primary"
          disabled={status === 'saving'}
          aria-busy={status === 'saving'}
          onClick={() => void confirm()}
        >
          {status === 'saving' ? 'Securing...' : 'Confirm'}
        </button>
      </div>
    </ScreenLayout>
  )
}
