import { PASSKEY_LIMIT, type PasskeyAccount, toLatchkeyError, type User } from '@latchkey/core'
import { type ErrorCode, errorMessages, userMessageLine } from '@latchkey/protocol/errors'
import { useState } from 'react'
import type { ManagePasskeysRequest } from '../../store.ts'
import { CheckIcon, KeyIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { createdWith, dateFormat } from './mfa/passkey-info.ts'

/** Spec 02 "Passkey management": this many passkeys show before 'View all'. */
export const PASSKEYS_SHOWN = 2

export interface PasskeysScreenProps {
  request: ManagePasskeysRequest
  /** Done: the user is finished here. */
  onDone(): void
}

const passkeysOf = (user: User) =>
  user.linkedAccounts.filter((account): account is PasskeyAccount => account.type === 'passkey')

type Busy = { kind: 'adding' } | { kind: 'unlinking'; credentialId: string } | null

/**
 * Spec 02 "Passkey management": 'Secure your account with a passkey', the
 * user's passkeys (authenticator name, browser, OS, last verified; 2 shown
 * then 'View all'), unlink with a confirmation, 'Add new passkey' until the
 * limit of 5, then 'Passkeys updated' and Done. Errors use the catalogue's
 * wording and what to do ('Cannot link more passkeys to account.', 'Cannot
 * unlink a passkey enrolled in MFA', 'You can't remove your only login
 * method. Link another login method first.', the browser's refusal).
 */
export function PasskeysScreen({ request, onDone }: PasskeysScreenProps) {
  const [passkeys, setPasskeys] = useState(request.passkeys)
  const [expanded, setExpanded] = useState(false)
  const [updated, setUpdated] = useState(false)
  const [busy, setBusy] = useState<Busy>(null)
  const [confirming, setConfirming] = useState<string | null>(null)
  const [error, setError] = useState<ErrorCode | null>(null)

  const run = async (next: Busy & {}, operation: () => Promise<User>) => {
    setBusy(next)
    setError(null)
    try {
      setPasskeys(passkeysOf(await operation()))
      setUpdated(true)
    } catch (cause) {
      setError(toLatchkeyError(cause).code)
    } finally {
      setBusy(null)
      setConfirming(null)
    }
  }

  const shown = expanded ? passkeys : passkeys.slice(0, PASSKEYS_SHOWN)
  const atLimit = passkeys.length >= PASSKEY_LIMIT
  return (
    <ScreenLayout
      title={updated ? 'Passkeys updated' : 'Secure your account with a passkey'}
      subtitle={
        updated || passkeys.length > 0
          ? undefined
          : "Log in with your device's fingerprint, face or screen lock instead of a code."
      }
      media={
        updated ? (
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        ) : (
          <StatusIcon tone="neutral">
            <KeyIcon />
          </StatusIcon>
        )
      }
    >
      <div className="lk-stack">
        {passkeys.length > 0 && (
          <ul className="lk-passkey-list" aria-label="Your passkeys">
            {shown.map((passkey) => (
              <PasskeyRow
                key={passkey.credentialId}
                passkey={passkey}
                confirming={confirming === passkey.credentialId}
                unlinking={busy?.kind === 'unlinking' && busy.credentialId === passkey.credentialId}
                disabled={busy !== null}
                onUnlink={() => setConfirming(passkey.credentialId)}
                onCancel={() => setConfirming(null)}
                onConfirm={() =>
                  void run({ kind: 'unlinking', credentialId: passkey.credentialId }, () =>
                    request.unlink(passkey.credentialId),
                  )
                }
              />
            ))}
          </ul>
        )}
        {!expanded && passkeys.length > PASSKEYS_SHOWN && (
          <button
            type="button"
            className="lk-link-btn lk-explainer-toggle"
            onClick={() => setExpanded(true)}
          >
            View all
          </button>
        )}
        {error && (
          <p className="lk-alert" role="alert">
            {/* With what to do about it: 'Link another login method first.' (issue 16, 4a). */}
            {userMessageLine(errorMessages[error])}
          </p>
        )}
        <div className="lk-actions">
          {atLimit ? (
            <p className="lk-info">{errorMessages.PASSKEY_LINK_LIMIT.title}</p>
          ) : (
            <button
              type="button"
              className={`lk-btn ${updated ? 'lk-btn-secondary' : 'lk-btn-primary'}`}
              disabled={busy !== null}
              onClick={() => void run({ kind: 'adding' }, request.link)}
            >
              {busy?.kind === 'adding' ? (
                <Spinner size="sm" label="Waiting for your passkey" />
              ) : (
                'Add new passkey'
              )}
            </button>
          )}
          {(updated || passkeys.length > 0) && (
            <button
              type="button"
              className={`lk-btn ${updated ? 'lk-btn-primary' : 'lk-btn-secondary'}`}
              disabled={busy !== null}
              onClick={onDone}
            >
              Done
            </button>
          )}
        </div>
      </div>
    </ScreenLayout>
  )
}

interface PasskeyRowProps {
  passkey: PasskeyAccount
  confirming: boolean
  unlinking: boolean
  disabled: boolean
  onUnlink(): void
  onCancel(): void
  onConfirm(): void
}

/** One passkey: authenticator name, browser and OS, last verified; Unlink, then a confirmation. */
function PasskeyRow({
  passkey,
  confirming,
  unlinking,
  disabled,
  onUnlink,
  onCancel,
  onConfirm,
}: PasskeyRowProps) {
  const name = passkey.authenticatorName ?? 'Passkey'
  const origin = createdWith(passkey)
  return (
    <li className="lk-passkey">
      <div className="lk-passkey-info">
        <strong>{name}</strong>
        {origin && <span>{origin}</span>}
        <span>Last verified {dateFormat.format(passkey.latestVerifiedAt)}</span>
      </div>
      {confirming ? (
        <div className="lk-passkey-confirm">
          <span>Are you sure you want to remove this passkey?</span>
          <div className="lk-row">
            <button type="button" className="lk-link-btn" onClick={onCancel} disabled={unlinking}>
              Cancel
            </button>
            <button type="button" className="lk-link-btn" onClick={onConfirm} disabled={unlinking}>
              {unlinking ? <Spinner size="sm" label="Unlinking passkey" /> : 'Remove'}
            </button>
          </div>
        </div>
      ) : (
        <button
          type="button"
          className="lk-link-btn"
          aria-label={`Unlink ${name}${origin ? ` (${origin})` : ''}`}
          disabled={disabled}
          onClick={onUnlink}
        >
          Unlink
        </button>
      )}
    </li>
  )
}
