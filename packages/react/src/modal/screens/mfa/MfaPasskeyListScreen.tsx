import { PASSKEY_LIMIT, type PasskeyAccount } from '@latchkey/core'
import { errorMessages } from '@latchkey/protocol/errors'
import { useState } from 'react'
import { KeyIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { mfaErrorMessage } from './mfa-errors.ts'
import { createdWith, dateFormat, passkeyName } from './passkey-info.ts'

/** Spec 02 "Passkey management": the MFA listing shows 3 passkeys, or 2 when more than 3 exist. */
export const MFA_PASSKEYS_SHOWN = 3
export const MFA_PASSKEYS_SHOWN_WHEN_MORE = 2

export interface MfaPasskeyListScreenProps {
  /** The user's linked passkeys; those with `enrolledInMfa` show as enabled. */
  passkeys: PasskeyAccount[]
  /** Enables the checked passkeys; resolving ends this screen. */
  onEnable(credentialIds: string[]): Promise<void>
  /** Links a new passkey; the parent's refreshed `passkeys` then list it, checked. */
  onAdd(): Promise<PasskeyAccount>
  onBack?(): void
}

type Busy = 'enabling' | 'adding' | null

/**
 * Spec 02 "Passkey setup": 'Enable your passkeys for verification', a
 * checkable list (name, browser and OS, last verified; 'View All' past 3),
 * 'Enable passkeys' for the checked ones and 'Add new passkey'.
 */
export function MfaPasskeyListScreen({
  passkeys,
  onEnable,
  onAdd,
  onBack,
}: MfaPasskeyListScreenProps) {
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set())
  const [expanded, setExpanded] = useState(false)
  const [busy, setBusy] = useState<Busy>(null)
  const [error, setError] = useState<string | null>(null)

  const collapse = !expanded && passkeys.length > MFA_PASSKEYS_SHOWN
  const shown = collapse ? passkeys.slice(0, MFA_PASSKEYS_SHOWN_WHEN_MORE) : passkeys
  const toEnable = passkeys.filter((p) => !p.enrolledInMfa && checked.has(p.credentialId))

  const toggle = (credentialId: string) =>
    setChecked((old) => {
      const next = new Set(old)
      if (!next.delete(credentialId)) next.add(credentialId)
      return next
    })

  const run = async (kind: Busy & {}, operation: () => Promise<void>) => {
    setBusy(kind)
    setError(null)
    try {
      await operation()
    } catch (cause) {
      setError(mfaErrorMessage(cause))
    } finally {
      setBusy(null)
    }
  }

  const add = () =>
    run('adding', async () => {
      const added = await onAdd()
      setChecked((old) => new Set(old).add(added.credentialId))
      // The new one may be past the first rows: show them all.
      setExpanded(true)
    })

  return (
    <ScreenLayout
      title="Enable your passkeys for verification"
      subtitle="Choose the passkeys that can confirm your wallet actions."
      media={
        <StatusIcon tone="neutral">
          <KeyIcon />
        </StatusIcon>
      }
      onBack={onBack}
    >
      <div className="lk-stack">
        <ul className="lk-passkey-list" aria-label="Your passkeys">
          {shown.map((passkey) => {
            const origin = createdWith(passkey)
            return (
              <li key={passkey.credentialId} className="lk-passkey">
                <label className="lk-checkbox">
                  <input
                    type="checkbox"
                    checked={passkey.enrolledInMfa || checked.has(passkey.credentialId)}
                    disabled={passkey.enrolledInMfa || busy !== null}
                    onChange={() => toggle(passkey.credentialId)}
                  />
                  <span className="lk-passkey-info">
                    <strong>{passkeyName(passkey)}</strong>
                    {origin && <span>{origin}</span>}
                    <span>Last verified {dateFormat.format(passkey.latestVerifiedAt)}</span>
                  </span>
                </label>
                {passkey.enrolledInMfa && <span className="lk-chip">Enabled</span>}
              </li>
            )
          })}
        </ul>
        {collapse && (
          <button
            type="button"
            className="lk-link-btn lk-explainer-toggle"
            onClick={() => setExpanded(true)}
          >
            View All
          </button>
        )}
        {error && (
          <p className="lk-alert" role="alert">
            {error}
          </p>
        )}
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-primary"
            disabled={busy !== null || toEnable.length === 0}
            onClick={() =>
              void run('enabling', () => onEnable(toEnable.map((p) => p.credentialId)))
            }
          >
            {busy === 'enabling' ? (
              <Spinner size="sm" label="Enabling passkeys" />
            ) : (
              'Enable passkeys'
            )}
          </button>
          {passkeys.length < PASSKEY_LIMIT ? (
            <button
              type="button"
              className="lk-btn lk-btn-secondary"
              disabled={busy !== null}
              onClick={() => void add()}
            >
              {busy === 'adding' ? (
                <Spinner size="sm" label="Waiting for your passkey" />
              ) : (
                'Add new passkey'
              )}
            </button>
          ) : (
            <p className="lk-info">{errorMessages.PASSKEY_LINK_LIMIT.title}</p>
          )}
        </div>
      </div>
    </ScreenLayout>
  )
}
