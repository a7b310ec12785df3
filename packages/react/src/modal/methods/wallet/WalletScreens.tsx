import type { LatchkeyError } from '@latchkey/core'
import type { WalletOption } from '@latchkey/core/external'
import { mobileLink } from '@latchkey/core/external'
import { MOBILE_REDIRECT_STILL_HERE_MS } from '@latchkey/protocol/constants'
import { errorMessages } from '@latchkey/protocol/errors'
import { useEffect, useState } from 'react'
import { withConnectorHints } from '../../../connector-hints.ts'
import { AlertIcon, CheckIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { StatusIcon } from '../../components/StatusIcon.tsx'
import { WalletConnectQr } from './WalletConnectQr.tsx'
import { WalletIcon } from './WalletList.tsx'

/** Spec 01 §4: after two retries, 'Unable to connect wallet'. */
const exhaustedTitle = errorMessages.WALLET_CONNECT_FAILED.title

/** Where a wallet connection is (spec 01 §2 "Wallet connecting"). */
export type ConnectPhase = 'waiting' | 'switching' | 'sign' | 'signing' | 'success' | 'error'

export interface WalletConnectingScreenProps {
  option: WalletOption
  phase: ConnectPhase
  error?: LatchkeyError | null
  /** Retry is offered (retries left and the error is retryable). */
  canRetry: boolean
  /** No retries left: 'Unable to connect wallet', only 'Use a different wallet'. */
  exhausted: boolean
  /** WalletConnect's pairing URI, drawn as a QR code. */
  uri?: string | null
  onRetry(): void
  onOtherWallet(): void
}

/** 'Waiting for {wallet}' → 'Switching networks' → 'Sign to verify' → 'Signing' → success or failure. */
export function WalletConnectingScreen({
  option,
  phase,
  error,
  canRetry,
  exhausted,
  uri,
  onRetry,
  onOtherWallet,
}: WalletConnectingScreenProps) {
  if (phase === 'success')
    return (
      <ScreenLayout
        title={`Successfully connected with ${option.name}`}
        media={
          <StatusIcon tone="success">
            <CheckIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="status">
          Successfully connected with {option.name}
        </p>
      </ScreenLayout>
    )
  if (phase === 'error') {
    const message = error?.userMessage
    // Spec 01 §8: Phantom with multichain off reads 'Could not connect with wallet', Try again / Cancel.
    const multichain = error?.code === 'WALLET_MULTICHAIN_DISABLED' && !exhausted
    return (
      <ScreenLayout
        title={exhausted ? exhaustedTitle : (message?.title ?? errorMessages.INTERNAL_ERROR.title)}
        subtitle={exhausted ? undefined : message?.detail}
        onBack={onOtherWallet}
        media={
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        }
      >
        <p className="lk-visually-hidden" role="alert">
          {exhausted ? exhaustedTitle : message?.title}
        </p>
        <div className="lk-actions">
          {canRetry && !exhausted && (
            <button type="button" className="lk-btn lk-btn-primary" onClick={onRetry} autoFocus>
              {multichain ? 'Try again' : 'Retry'}
            </button>
          )}
          <button type="button" className="lk-btn lk-btn-secondary" onClick={onOtherWallet}>
            {multichain ? 'Cancel' : 'Use a different wallet'}
          </button>
        </div>
      </ScreenLayout>
    )
  }
  if (phase === 'waiting' && uri)
    return <WalletConnectQr option={option} uri={uri} onBack={onOtherWallet} />
  const titles: Record<Exclude<ConnectPhase, 'success' | 'error'>, string> = {
    waiting: `Waiting for ${option.name}`,
    switching: 'Switching networks',
    sign: 'Sign to verify',
    signing: 'Signing',
  }
  const subtitles: Record<Exclude<ConnectPhase, 'success' | 'error'>, string> = {
    waiting: 'Connect your wallet to continue.',
    switching: `Approve the network switch in ${option.name}.`,
    sign: `Sign the message in ${option.name} to verify it belongs to you.`,
    signing: 'Verifying your signature.',
  }
  return (
    <ScreenLayout
      title={titles[phase]}
      subtitle={subtitles[phase]}
      onBack={onOtherWallet}
      media={<WalletIcon option={option} />}
    >
      <div className="lk-status">
        <Spinner label={titles[phase]} />
      </div>
    </ScreenLayout>
  )
}

/** A wallet that is not installed, on a desktop browser (spec 01 §2). */
export function InstallWalletScreen({ option, onBack }: { option: WalletOption; onBack(): void }) {
  return (
    <ScreenLayout
      title={`Install ${option.name}`}
      media={<WalletIcon option={option} />}
      onBack={onBack}
    >
      <ol className="lk-steps">
        <li>
          Install the {option.name} browser extension
          {option.extensionUrl && (
            <>
              {' '}
              from{' '}
              <a href={option.extensionUrl} target="_blank" rel="noopener noreferrer">
                {new URL(option.extensionUrl).host}
              </a>
            </>
          )}
          .
        </li>
        <li>Set up a new wallet or import an existing one.</li>
        <li>Store your recovery phrase somewhere safe. Never share it.</li>
        <li>Reload this page to connect.</li>
      </ol>
      <div className="lk-actions">
        <button
          type="button"
          className="lk-btn lk-btn-primary"
          onClick={() => globalThis.location?.reload()}
        >
          Reload the page
        </button>
      </div>
    </ScreenLayout>
  )
}

/**
 * A wallet app on a phone: Continue opens this page in the wallet's browser;
 * after 1 s 'Still here?' offers the App Store (spec 01 §4 "Mobile redirect").
 */
export function MobileRedirectScreen({
  option,
  connectOnly = false,
  onBack,
}: {
  option: WalletOption
  /** The flow is connect-only: the page opened in the wallet resumes that (connector hints). */
  connectOnly?: boolean
  onBack(): void
}) {
  const [left, setLeft] = useState(false)
  const [stillHere, setStillHere] = useState(false)
  useEffect(() => {
    if (!left) return
    const timer = setTimeout(() => setStillHere(true), MOBILE_REDIRECT_STILL_HERE_MS)
    return () => clearTimeout(timer)
  }, [left])
  const link = option.mobileBrowseUrl
    ? mobileLink(
        option.mobileBrowseUrl,
        // Spec 01 §2: the page opened in the wallet's browser resumes on this wallet.
        withConnectorHints(globalThis.location?.href ?? '', {
          connector: 'injected',
          walletClient: option.id,
          connectOnly,
        }),
      )
    : option.homepage
  return (
    <ScreenLayout
      title={stillHere ? 'Still here?' : `Open ${option.name}`}
      subtitle={
        stillHere
          ? `If ${option.name} did not open, install it first.`
          : `Continue in the ${option.name} app to connect.`
      }
      media={<WalletIcon option={option} />}
      onBack={onBack}
    >
      <div className="lk-actions">
        <a className="lk-btn lk-btn-primary" href={link} onClick={() => setLeft(true)}>
          Continue
        </a>
        {stillHere && option.appStoreUrl && (
          <a
            className="lk-btn lk-btn-secondary"
            href={option.appStoreUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            Go to App Store
          </a>
        )}
      </div>
    </ScreenLayout>
  )
}

/** Phantom on Solana: a Ledger signs a memo transaction instead of a message. */
export function LedgerChoiceScreen({
  option,
  onChoose,
  onBack,
}: {
  option: WalletOption
  onChoose(ledger: boolean): void
  onBack(): void
}) {
  return (
    <ScreenLayout
      title="Are you using a Ledger?"
      subtitle={`Ledger accounts in ${option.name} sign in with a transaction that is never sent.`}
      media={<WalletIcon option={option} />}
      onBack={onBack}
    >
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-primary" onClick={() => onChoose(true)}>
          Continue with Ledger
        </button>
        <button type="button" className="lk-btn lk-btn-secondary" onClick={() => onChoose(false)}>
          Continue without Ledger
        </button>
      </div>
    </ScreenLayout>
  )
}

/** A spinner while the wallet list loads (detection waits for EIP-6963 announcements). */
export function WalletLoadingScreen({ title, onBack }: { title: string; onBack?: () => void }) {
  return (
    <ScreenLayout title={title} onBack={onBack}>
      <div className="lk-status">
        <Spinner label="Looking for wallets" />
      </div>
    </ScreenLayout>
  )
}
