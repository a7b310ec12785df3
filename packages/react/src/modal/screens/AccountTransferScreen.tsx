import { type LatchkeyError, toLatchkeyError, type User } from '@latchkey/core'
import { TRANSFER_SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import type { AccountTransferOffer } from '@latchkey/protocol/schemas'
import { useEffect, useRef, useState } from 'react'
import { CheckIcon, CopyIcon, UserIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { useCopyFeedback } from '../components/useCopyFeedback.ts'

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

/** Spec 02 §4: prompt, optional asset check, confirm, success. */
type Phase =
  | { phase: 'prompt' }
  | { phase: 'assets' }
  | { phase: 'confirm'; error?: LatchkeyError }
  | { phase: 'transferring' }
  | { phase: 'success'; user: User }

const short = (address: string) =>
  address.length > 12 ? `${address.slice(0, 6)}…${address.slice(-4)}` : address

/**
 * Spec 02 "Account transfer": the login method being linked is the only one
 * of another account. The prompt says so and asks whether to move it here and
 * delete the other account. When that account has an embedded wallet the
 * prompt offers 'Continue', which leads to 'Check assets first' (its address,
 * copy, block explorer) and only then to the confirm step with 'Transfer and
 * delete account'; without a wallet the prompt is the confirm step. The button
 * turns into 'Success!' and the modal closes 1 s later; 'No thanks' changes
 * nothing and holds the focus wherever it is offered, so Enter never deletes
 * an account; the transfer button is styled as the destructive one.
 */
export default function AccountTransferScreen({
  offer,
  explorerUrl,
  transfer,
  onDecline,
  onDone,
}: AccountTransferScreenProps) {
  const [state, setState] = useState<Phase>({ phase: 'prompt' })
  const { copy, copied, confirmIcon } = useCopyFeedback()
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

  const confirm = async () => {
    setState({ phase: 'transferring' })
    try {
      setState({ phase: 'success', user: await transfer() })
    } catch (cause) {
      setState({ phase: 'confirm', error: toLatchkeyError(cause) })
    }
  }

  if (state.phase === 'assets' && wallet)
    return (
      <ScreenLayout
        key="assets"
        title="Check assets first"
        subtitle="Deleting the other account deletes its wallet's keys. Move anything you want to keep before you transfer."
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
              onClick={() => copy(wallet)}
              data-confirmed={confirmIcon || undefined}
            >
              {confirmIcon ? <CheckIcon /> : <CopyIcon />}
              {copied ? 'Copied' : 'Copy address'}
            </button>
            <button
              type="button"
              className="lk-btn lk-btn-primary"
              onClick={() => setState({ phase: 'confirm' })}
            >
              Continue
            </button>
          </div>
        </div>
      </ScreenLayout>
    )

  // With a wallet, the prompt only leads on; the destructive button waits for the confirm step.
  const prompting = state.phase === 'prompt' && wallet !== null
  const busy = state.phase === 'transferring' || state.phase === 'success'
  const walletNotice = wallet && state.phase !== 'success' && (
    <p className="lk-info">
      <strong>The other account has a wallet</strong>
      {short(wallet)} will no longer be reachable once the account is deleted.
    </p>
  )
  const decline = state.phase !== 'success' && (
    <button
      type="button"
      className="lk-btn lk-btn-secondary"
      onClick={onDecline}
      disabled={busy}
      autoFocus
    >
      No thanks
    </button>
  )

  if (prompting || !wallet)
    return (
      <ScreenLayout
        key="prompt"
        title="Transfer account?"
        subtitle={`${name} is already the login method of another account. Transfer it to this account and delete the other account?`}
        media={<Status success={state.phase === 'success'} />}
      >
        <div className="lk-stack">
          {walletNotice}
          <Outcome state={state} />
          <div className="lk-actions">
            {prompting ? (
              <button
                type="button"
                className="lk-btn lk-btn-primary"
                onClick={() => setState({ phase: 'assets' })}
              >
                Continue
              </button>
            ) : (
              <TransferButton state={state} onClick={() => void confirm()} />
            )}
            {decline}
          </div>
        </div>
      </ScreenLayout>
    )

  return (
    <ScreenLayout
      key="confirm"
      title="Delete the other account?"
      subtitle={`${name} moves to this account and the other account is deleted. This cannot be undone.`}
      media={<Status success={state.phase === 'success'} />}
      onBack={busy ? undefined : () => setState({ phase: 'assets' })}
    >
      <div className="lk-stack">
        {walletNotice}
        <Outcome state={state} />
        <div className="lk-actions">
          <TransferButton state={state} onClick={() => void confirm()} />
          {decline}
        </div>
      </div>
    </ScreenLayout>
  )
}

function Status({ success }: { success: boolean }) {
  return (
    <StatusIcon tone={success ? 'success' : 'neutral'}>
      {success ? <CheckIcon /> : <UserIcon />}
    </StatusIcon>
  )
}

/** A refused transfer's reason (the choice stays), or the screen reader's 'Account transferred'. */
function Outcome({ state }: { state: Phase }) {
  if (state.phase === 'confirm' && state.error)
    return (
      <p className="lk-alert" role="alert">
        {state.error.userMessageLine}
      </p>
    )
  if (state.phase === 'success')
    return (
      <p className="lk-visually-hidden" role="status">
        Account transferred
      </p>
    )
  return null
}

/** 'Transfer and delete account' → 'Transferring…' → 'Success!'. Destructive: never the focused default. */
function TransferButton({ state, onClick }: { state: Phase; onClick(): void }) {
  return (
    <button
      type="button"
      className={`lk-btn ${state.phase === 'success' ? 'lk-btn-primary' : 'lk-btn-danger'}`}
      onClick={onClick}
      disabled={state.phase === 'transferring' || state.phase === 'success'}
      aria-busy={state.phase === 'transferring'}
    >
      {state.phase === 'success'
        ? 'Success!'
        : state.phase === 'transferring'
          ? 'Transferring…'
          : 'Transfer and delete account'}
    </button>
  )
}
