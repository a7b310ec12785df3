import { LatchkeyError } from '@latchkey/core'
import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import { useId, useState } from 'react'
import { LockIcon } from '../components/icons.tsx'
import { PasswordInput } from '../components/PasswordInput.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

export interface RecoverWalletScreenProps {
  /** Core `ensureWalletReady(client, entropyId, password)`. */
  recover(password: string): Promise<void>
  /** The enclave holds the wallet again: continue with what asked for it. */
  onRecovered(): void
}

// Spec 02 §8: a wrong password says so; anything else is the generic recovery error.
const recoveryErrorCode = (error: unknown): ErrorCode =>
  error instanceof LatchkeyError && error.code === 'INVALID_RECOVERY_PASSWORD'
    ? error.code
    : 'RECOVERY_FAILED'

/**
 * Spec 02 "Recover wallet with password": on a new device a password-protected
 * wallet asks for its password. 'Recover your account' stays disabled until
 * one is typed; a wrong password shows 'Invalid recovery password, please try
 * again.' and the user can retry.
 */
export function RecoverWalletScreen({ recover, onRecovered }: RecoverWalletScreenProps) {
  const [password, setPassword] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<ErrorCode | null>(null)
  const [explained, setExplained] = useState(false)
  const explainerId = useId()

  const submit = async () => {
    if (!password || busy) return
    setBusy(true)
    setError(null)
    try {
      await recover(password)
      onRecovered()
    } catch (e) {
      setError(recoveryErrorCode(e))
      setBusy(false)
    }
  }

  return (
    <ScreenLayout
      title="Enter your password"
      subtitle="Your wallet is protected by a password. Enter it to use your wallet on this device."
      media={
        <StatusIcon tone="neutral">
          <LockIcon />
        </StatusIcon>
      }
    >
      <form
        className="lk-stack"
        noValidate
        onSubmit={(event) => {
          event.preventDefault()
          void submit()
        }}
      >
        <PasswordInput
          label="Password"
          autoComplete="current-password"
          value={password}
          disabled={busy}
          error={error ? errorMessages[error].title : null}
          onChange={(value) => {
            setPassword(value)
            setError(null)
          }}
        />
        <button
          type="button"
          className="lk-link-btn lk-explainer-toggle"
          aria-expanded={explained}
          aria-controls={explainerId}
          onClick={() => setExplained(!explained)}
        >
          Why is this necessary?
        </button>
        {explained && (
          <p className="lk-message" id={explainerId}>
            Your wallet is secured with a password only you know. This device has not used your
            wallet before, so it needs your password once to restore it here. Latchkey never sees
            your password.
          </p>
        )}
        <div className="lk-actions">
          <button
            type="submit"
            className="lk-btn lk-btn-primary"
            disabled={!password || busy}
            aria-busy={busy}
          >
            {busy ? 'Recovering...' : 'Recover your account'}
          </button>
        </div>
      </form>
    </ScreenLayout>
  )
}
