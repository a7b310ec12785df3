import { type LatchkeyError, toLatchkeyError } from '@latchkey/core'
import { ACCOUNT_DELETED_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { useEffect, useRef, useState } from 'react'
import type { DeleteAccountRequest } from '../../hooks/useDeleteAccount.ts'
import { AlertIcon, CheckIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

export interface DeleteAccountScreenProps {
  request: DeleteAccountRequest
  /** The account is gone (and the session ended): the hook resolves once the modal closes. */
  onDeleted(): void
  /** Cancel, and 1 s after 'Account deleted'. */
  onClose(): void
}

type Phase =
  | { phase: 'confirm'; error?: LatchkeyError }
  | { phase: 'deleting' }
  | { phase: 'deleted' }

/**
 * 'Delete your account?' (useDeleteAccount; the spec has no such screen:
 * docs/security.md "Data retention and access changes"). Says what goes —
 * the account, its logins, and the embedded wallet with a nudge to export it
 * first — and offers 'Delete account' (destructive, never the focused
 * button) or 'Cancel' (focused). Deleting shows a spinner on the button;
 * success shows 'Account deleted' and closes the modal 1 s later; a failure
 * shows the catalogue's message for its code and the buttons come back.
 */
export default function DeleteAccountScreen({
  request,
  onDeleted,
  onClose,
}: DeleteAccountScreenProps) {
  const [state, setState] = useState<Phase>({ phase: 'confirm' })
  // A re-render after 'Account deleted' must not restart the 1 s before the modal closes.
  const close = useRef(onClose)
  close.current = onClose

  useEffect(() => {
    if (state.phase !== 'deleted') return
    const timer = setTimeout(() => close.current(), ACCOUNT_DELETED_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [state.phase])

  const confirm = async () => {
    setState({ phase: 'deleting' })
    try {
      await request.deleteAccount()
    } catch (cause) {
      setState({ phase: 'confirm', error: toLatchkeyError(cause) })
      return
    }
    onDeleted()
    setState({ phase: 'deleted' })
  }

  if (state.phase === 'deleted')
    return (
      <ScreenLayout
        title="Account deleted"
        media={
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="status">
          Account deleted
        </p>
      </ScreenLayout>
    )

  const deleting = state.phase === 'deleting'
  return (
    <ScreenLayout
      title="Delete your account?"
      subtitle="This deletes your account and the logins linked to it."
      media={
        <StatusIcon tone="error">
          <AlertIcon />
        </StatusIcon>
      }
    >
      <div className="lk-stack">
        {request.hasEmbeddedWallet && (
          <p className="lk-info" data-testid="delete-account-wallet-warning">
            Your embedded wallet will be deleted from this app's servers. Export it first if it
            holds anything you want to keep.
          </p>
        )}
        {state.phase === 'confirm' && state.error && (
          <p className="lk-alert" role="alert">
            {state.error.userMessage.title}
          </p>
        )}
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-danger"
            onClick={() => void confirm()}
            disabled={deleting}
            aria-busy={deleting}
          >
            {deleting ? (
              <>
                <Spinner size="sm" />
                Deleting…
              </>
            ) : (
              'Delete account'
            )}
          </button>
          {request.exportWallet && (
            <button
              type="button"
              className="lk-btn lk-btn-secondary"
              onClick={() =>
                void request
                  .exportWallet?.()
                  .catch((cause: unknown) =>
                    setState({ phase: 'confirm', error: toLatchkeyError(cause) }),
                  )
              }
              disabled={deleting}
            >
              Export wallet
            </button>
          )}
          <button
            type="button"
            className="lk-btn lk-btn-secondary"
            onClick={onClose}
            disabled={deleting}
            autoFocus
          >
            Cancel
          </button>
        </div>
      </div>
    </ScreenLayout>
  )
}
