import { type LatchkeyError, toLatchkeyError, type User } from '@latchkey/core'
import { COPY_FEEDBACK_MS, TRANSFER_SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import type { AccountTransferOffer } from '@latchkey/protocol/schemas'
import { useEffect, useRef, useState } from 'react'
import { CheckIcon, UserIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

export interface AccountTransferScreenProps {
  offer: AccountTransferOffer
  /** Where the other account's wallet can be looked at; null when no explorer is known. */
  explorerUrl: string | null
  /** 'Transfer and delete account' (core `transferAccount`). */
  transfer(): Promise<User>
  /** 'No thanks': both accounts stay as they were. */
  onDecline(): void
  /** After 'Success!', 1 s later: the modal closes. */
  onDone(user: User): void
}

type Phase =
  | { phase: 'prompt'; error?: LatchkeyError }
  | { phase: 'assets' }
  | { phase: 'transferring' }
  | { phase: 'success'; user: User }

const short = (address: string) =>
  address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address

/**
 * Spec 02 "Account transfer": the login method being linked is the only one
 * of another account. The screen says so and asks whether to move it here
 * and delete the other account; when that account has an embedded wallet,
 * 'Check assets first' shows its address (copy, block explorer) and
 * 'Continue' comes back. 'Transfer and delete account' turns into 'Success!'
 * and the modal closes 1 s later; 'No thanks' changes nothing. 'No thanks'
 * holds the focus, so Enter never deletes an account; the transfer button is
 * styled as the destructive one.
 */
export default function AccountTransferScreen({
  offer,
  explorerUrl,
  transfer,
  onDecline,
  onDone,
}: AccountTransferScreenProps) {
  const [state, setState] = useState<Phase>({ phase: 'prompt' })
  const [copied, setCopied] = useState(false)
  const wallet = offer.other_user.embedded_wallet_address
  const name = offer.account.display_name
  // The parent re-creates onDone on each render: a re-render after 'Success!'
  // must not restart the 1 s before the modal closes.
  const done = useRef(onDone)
  done.current = onDone

  useEffect(() => {
    if (state.phase !== 'success') return
    const timer = setTimeout(() => done.current(state.user), TRANSFER_SUCCESS_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [state])
  useEffect(() => {
    if (!copied) return
    const timer = setTimeout(() => setCopied(false), COPY_FEEDBACK_MS)
    return () => clearTimeout(timer)
  }, [copied])

  const confirm = async () => {
    setState({ phase: 'transferring' })
    try {
      setState({ phase: 'success', user: await transfer() })
    } catch (cause) {
      setState({ phase: 'prompt', error: toLatchkeyError(cause) })
    }
  }

  if (state.phase === 'assets' && wallet)
    return (
      <ScreenLayout
        title="Check assets first"
        subtitle="Deleting the other account leaves its wallet behind. Move anything you want to keep before you transfer."
        onBack={() => setState({ phase: 'prompt' })}
      >
        <div className="lk-stack">
          <div className="lk-details">
            <p className="lk-details-label">Wallet of the other account</p>
            <p className="lk-details-text" data-testid="transfer-wallet-address">
              {wallet}
            </p>
          </div>
          <div className="lk-actions">
            {explorerUrl && (
              <a
                className="lk-btn lk-btn-secondary"
                href={explorerUrl}
                target="_blank"
                rel="noopener noreferrer"
              >
                View on explorer
              </a>
            )}
            <button
              type="button"
              className="lk-btn lk-btn-secondary"
              onClick={() =>
                void navigator.clipboard?.writeText(wallet).then(
                  () => setCopied(true),
                  () => undefined,
                )
              }
            >
              {copied ? 'Copied' : 'Copy address'}
            </button>
            <button
              type="button"
              className="lk-btn lk-btn-primary"
              onClick={() => setState({ phase: 'prompt' })}
            >
              Continue
            </button>
          </div>
        </div>
      </ScreenLayout>
    )

  const busy = state.phase === 'transferring' || state.phase === 'success'
  return (
    <ScreenLayout
      title="Transfer account?"
      subtitle={`${name} is already the login method of another account. Transfer it to this account and delete the other account?`}
      media={
        <StatusIcon tone={state.phase === 'success' ? 'success' : 'neutral'}>
          {state.phase === 'success' ? <CheckIcon /> : <UserIcon />}
        </StatusIcon>
      }
    >
      <div className="lk-stack">
        {wallet && state.phase !== 'success' && (
          <p className="lk-info">
            <strong>The other account has a wallet</strong>
            {short(wallet)} will no longer be reachable from it once the account is deleted.
          </p>
        )}
        {state.phase === 'prompt' && state.error && (
          <p className="lk-alert" role="alert">
            {state.error.userMessageLine}
          </p>
        )}
        {state.phase === 'success' && (
          <p className="lk-visually-hidden" role="status">
            Account transferred
          </p>
        )}
        <div className="lk-actions">
          {/* Destructive: styled as such, and never the focused default ('No thanks' is). */}
          <button
            type="button"
            className={`lk-btn ${state.phase === 'success' ? 'lk-btn-primary' : 'lk-btn-danger'}`}
            onClick={() => void confirm()}
            disabled={busy}
            aria-busy={state.phase === 'transferring'}
          >
            {state.phase === 'success'
              ? 'Success!'
              : state.phase === 'transferring'
                ? 'Transferring…'
                : 'Transfer and delete account'}
          </button>
          {wallet && state.phase !== 'success' && (
            <button
              type="button"
              className="lk-btn lk-btn-secondary"
              onClick={() => setState({ phase: 'assets' })}
              disabled={busy}
            >
              Check assets first
            </button>
          )}
          {state.phase !== 'success' && (
            <button
              type="button"
              className="lk-btn lk-btn-secondary"
              onClick={onDecline}
              disabled={busy}
              autoFocus
            >
              No thanks
            </button>
          )}
        </div>
      </div>
    </ScreenLayout>
  )
}
