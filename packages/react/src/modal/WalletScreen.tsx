import type { LatchkeyError } from '@latchkey/core'
import { lazy, Suspense, useState } from 'react'
import type { LatchkeyInstance, WalletScreenRequest } from '../store.ts'
import { CloudRecoveryScreen } from './screens/CloudRecoveryScreen.tsx'
import { ConnectEmbeddedWalletScreen } from './screens/ConnectEmbeddedWalletScreen.tsx'
import { CreateWalletsScreen } from './screens/CreateWalletsScreen.tsx'
import { ExportWalletScreen } from './screens/ExportWalletScreen.tsx'
import { LoadingScreen } from './screens/LoadingScreen.tsx'
import { PasskeysScreen } from './screens/PasskeysScreen.tsx'
import { SecureAccountScreen } from './screens/SecureAccountScreen.tsx'
import { SetPasswordScreen } from './screens/SetPasswordScreen.tsx'
import { SignMessageScreen } from './screens/SignMessageScreen.tsx'

// Rarely opened: its own chunk, so the modal's first load does not carry it.
const DeleteAccountScreen = lazy(() => import('./screens/DeleteAccountScreen.tsx'))
const MfaEnrollmentScreen = lazy(() => import('./MfaEnrollmentScreen.tsx'))
// Transactions load viem's formatting and the rows only when a transaction is confirmed.
const EthereumTransactionScreen = lazy(() => import('./transactions/EthereumTransactionScreen.tsx'))
// Solana's confirm screen carries @solana/kit's decoding: its own chunk, loaded on a Solana transaction.
const SolanaTransactionScreen = lazy(
  () => import('./transactions/solana/SolanaTransactionScreen.tsx'),
)
// Funding (chooser, receive, transfer, on-ramp status): its own chunk, loaded on `fundWallet`.
const FundWalletScreen = lazy(() => import('./funding/FundWalletScreen.tsx'))
// 'Add a signer to Farcaster' (its QR code): its own chunk, loaded on `requestFarcasterSignerFromWarpcast`.
const FarcasterSignerScreen = lazy(() => import('./farcaster-signer/FarcasterSignerScreen.tsx'))
// Delegation consent and revoke: its own chunk, loaded on `useDelegatedActions`.
const DelegatedActionsScreen = lazy(() => import('./delegated-actions/DelegatedActionsScreen.tsx'))
// Cross-app login ('Connecting to {app}'): its own chunk, loaded on `useCrossAppAccounts`.
const CrossAppScreen = lazy(() => import('./cross-app/CrossAppScreen.tsx'))

export interface WalletScreenProps {
  instance: LatchkeyInstance
  request: WalletScreenRequest
  onClose(): void
}

/**
 * Picks the screen for a wallet request (`openWalletScreen`) and wires it to
 * the store. A request whose wallet is not usable on this device yet carries
 * `connectWallet`: the connect-wallet screen (spec 03) comes first, then its own.
 */
export function WalletScreen({ instance, request, onClose }: WalletScreenProps) {
  const [connected, setConnected] = useState(false)
  const complete = (result?: unknown) => instance.completeWalletScreen(request, result)
  const exitWith = (error: LatchkeyError | null) => instance.setWalletScreenExit(request, error)
  const connectFirst = 'connectWallet' in request ? request.connectWallet : undefined
  if (connectFirst && !connected)
    return (
      <ConnectEmbeddedWalletScreen
        step={connectFirst}
        onConnected={() => setConnected(true)}
        onExitChange={exitWith}
        onClose={onClose}
      />
    )
  switch (request.screen) {
    case 'connect-embedded-wallet':
      return (
        <ConnectEmbeddedWalletScreen
          step={request}
          onConnected={() => {
            complete()
            onClose()
          }}
          onExitChange={exitWith}
          onClose={onClose}
        />
      )
    case 'sign-message':
      return (
        <SignMessageScreen
          request={request}
          onSigned={complete}
          onDone={onClose}
          onCancel={onClose}
          onExitChange={exitWith}
        />
      )
    case 'set-password':
      return <SetPasswordScreen request={request} onSet={() => complete()} onClose={onClose} />
    case 'export-wallet':
      return (
        <ExportWalletScreen request={request} onExported={() => complete()} onClose={onClose} />
      )
    case 'secure-account':
      return <SecureAccountScreen request={request} onDone={() => complete()} onClose={onClose} />
    case 'cloud-recovery':
      return <CloudRecoveryScreen request={request} onDone={() => complete()} onClose={onClose} />
    case 'wallet-creation':
      return <CreateWalletsScreen instance={instance} request={request} onClose={onClose} />
    case 'delete-account':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <DeleteAccountScreen request={request} onDeleted={() => complete()} onClose={onClose} />
        </Suspense>
      )
    case 'mfa-enrollment':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <MfaEnrollmentScreen
            instance={instance}
            onClose={() => {
              complete()
              onClose()
            }}
          />
        </Suspense>
      )
    case 'ethereum-transaction':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <EthereumTransactionScreen
            request={request}
            onResult={complete}
            onDone={onClose}
            onCancel={onClose}
            onExitChange={exitWith}
          />
        </Suspense>
      )
    case 'solana-transaction':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <SolanaTransactionScreen
            request={request}
            onResult={complete}
            onDone={onClose}
            onCancel={onClose}
            onExitChange={exitWith}
          />
        </Suspense>
      )
    case 'fund-wallet':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <FundWalletScreen
            request={request}
            onFunded={() => complete({ funded: true })}
            onClose={onClose}
          />
        </Suspense>
      )
    case 'farcaster-signer':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <FarcasterSignerScreen request={request} onApproved={complete} onClose={onClose} />
        </Suspense>
      )
    case 'delegate-wallet':
    case 'revoke-wallets':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <DelegatedActionsScreen
            request={request}
            onDone={complete}
            onFailed={exitWith}
            onClose={onClose}
          />
        </Suspense>
      )
    case 'cross-app':
      return (
        <Suspense fallback={<LoadingScreen />}>
          <CrossAppScreen request={request} onDone={complete} onClose={onClose} />
        </Suspense>
      )
    case 'passkeys':
      return (
        <PasskeysScreen
          request={request}
          onDone={() => {
            complete()
            onClose()
          }}
        />
      )
  }
}
