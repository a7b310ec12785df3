import {
  createWalletsOnLogin,
  embeddedWallets,
  type LatchkeyClient,
  LatchkeyError,
  logoutAfterCreationFailure,
  startCloudConsent,
  toLatchkeyError,
  type WalletCreationScreenName,
} from '@latchkey/core'
import { WALLET_CREATED_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import { type ErrorCode, errorMessages } from '@latchkey/protocol/errors'
import type { CloudRecoveryProvider, RecoveryMethod } from '@latchkey/protocol/schemas'
import { useEffect, useRef, useState } from 'react'
import type { UserOwnedRecoveryMethod } from '../../config.ts'
import { CheckIcon, ShieldIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { CloudRecoveryScreen } from './CloudRecoveryScreen.tsx'
import { FailureScreen } from './FailureScreen.tsx'
import { RecoverWalletScreen } from './RecoverWalletScreen.tsx'
import { SecureAccountScreen } from './SecureAccountScreen.tsx'

export interface WalletCreationScreenProps {
  client: LatchkeyClient
  chains: Array<'ethereum' | 'solana'>
  isNewUser: boolean
  appName: string | null
  /**
   * The app requires user-owned recovery: a new secret is created only once
   * the user picked one of these (spec 02). Null: automatic recovery.
   */
  userOwnedRecovery?: UserOwnedRecoveryMethod[] | null
  /** Wallets are ready; the modal may close. */
  onDone(): void
  /** Creation failed and the user has been logged out (spec 02 §4): report it. */
  onFailed(code: ErrorCode): void
  /** The failure screen's Close. */
  onClose(): void
  /**
   * What closing the modal now means: SET_RECOVERY_EXITED while the
   * recovery choice shows (spec 02 §4), null once it is made.
   */
  onExitChange?(code: ErrorCode | null): void
}

/** A failure nobody named is 'User wallet creation failed' (spec 02 §8). */
const creationFailure = (error: unknown): ErrorCode => {
  const { code } = toLatchkeyError(error)
  return code === 'INTERNAL_ERROR' ? 'USER_WALLET_CREATION_FAILED' : code
}

/** Spec 02 §4: a failed creation logs the user out, with the event naming the error and screen. */
async function failCreation(
  client: LatchkeyClient,
  error: unknown,
  screen: WalletCreationScreenName,
): Promise<ErrorCode> {
  const code = creationFailure(error)
  await logoutAfterCreationFailure(client, { error: code, screen })
  return code
}

/**
 * The post-login wallet step: creates the wallets in the enclave, then greets
 * the user ("Welcome to {app}" when new, "All set!" otherwise) and closes
 * after 2.5 s. A failure logs the user out, reports
 * `embedded_wallet_creation_failure_logout` with the error and the screen,
 * and shows the message with Close. When the app requires user-owned
 * recovery, 'Secure your account' comes first (a password alone goes
 * straight to the wizard); a Google Drive / iCloud choice leaves for the
 * provider's consent and the creation finishes on return (react/cloud.ts).
 */
export function WalletCreationScreen(props: WalletCreationScreenProps) {
  const { client, chains, isNewUser, userOwnedRecovery, onDone, onExitChange } = props
  const [needsChoice] = useState(
    () =>
      !!userOwnedRecovery &&
      !embeddedWallets(client.session.getState().user).some((w) => !w.imported),
  )
  const failed = useRef(false)
  const exit = useRef(onExitChange)
  exit.current = onExitChange
  useEffect(() => {
    if (needsChoice) exit.current?.('SET_RECOVERY_EXITED')
  }, [needsChoice])
  if (needsChoice && userOwnedRecovery)
    // Started by the app: no Cancel; the password wizard creates the wallets
    // with the password and closes itself 1.4 s after success. Its failure
    // ('Something went wrong' and Close) logs the user out like any other.
    return (
      <SecureAccountScreen
        request={{
          screen: 'secure-account',
          mode: 'secure',
          currentMethod: null,
          options: userOwnedRecovery,
          automatic: true,
          setPassword: (password) =>
            createWalletsOnLogin(client, chains, { method: 'user-passcode', password }).catch(
              async (error: unknown) => {
                failed.current = true
                props.onFailed(await failCreation(client, error, 'set-password'))
                throw error
              },
            ),
          setAutomatic: () => Promise.reject(new LatchkeyError('UNSUPPORTED_METHOD')),
          startConsent: (provider) =>
            startCloudConsent(client, { provider, action: 'create-wallet', chains, isNewUser }),
        }}
        onDone={() => exit.current?.(null)}
        onClose={() => (failed.current ? props.onClose() : onDone())}
      />
    )
  return <CreateWallets {...props} />
}

function CreateWallets({
  client,
  chains,
  isNewUser,
  appName,
  onDone,
  onFailed,
  onClose,
}: WalletCreationScreenProps) {
  const [status, setStatus] = useState<'creating' | 'done'>('creating')
  const [failure, setFailure] = useState<ErrorCode | null>(null)
  // The user's secret exists but not on this device, and its recovery needs the user.
  const [recovery, setRecovery] = useState<{ method: RecoveryMethod; entropyId: string } | null>(
    null,
  )
  const callbacks = useRef({ onDone, onFailed })
  callbacks.current = { onDone, onFailed }
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return
    started.current = true
    createWalletsOnLogin(client, chains)
      .then(() => setStatus('done'))
      .catch(async (error: unknown) => {
        const failure = toLatchkeyError(error)
        const needed = failure.code === 'RECOVERY_REQUIRED' ? recoveryNeeded(failure) : null
        if (needed) return setRecovery(needed)
        const code = await failCreation(client, failure, 'wallet-creation')
        setFailure(code)
        callbacks.current.onFailed(code)
      })
  }, [client, chains])

  useEffect(() => {
    if (status !== 'done') return
    const timer = setTimeout(() => callbacks.current.onDone(), WALLET_CREATED_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [status])

  if (failure)
    return (
      <FailureScreen
        message={errorMessages[failure] ?? errorMessages.USER_WALLET_CREATION_FAILED}
        onClose={onClose}
      />
    )
  if (status === 'creating' && recovery?.method === 'user-passcode')
    return (
      <RecoverWalletScreen
        recover={(password) =>
          createWalletsOnLogin(client, chains, undefined, { password }).then(() => {})
        }
        onRecovered={() => setStatus('done')}
      />
    )
  if (
    status === 'creating' &&
    (recovery?.method === 'google-drive' || recovery?.method === 'icloud')
  )
    return (
      <CloudRecoveryScreen
        request={{
          screen: 'cloud-recovery',
          provider: recovery.method,
          action: 'recover',
          startConsent: () =>
            startCloudConsent(client, {
              provider: recovery.method as CloudRecoveryProvider,
              action: 'create-wallet',
              entropyId: recovery.entropyId,
              chains,
              isNewUser,
            }),
        }}
        onDone={() => {}}
        onClose={onDone}
      />
    )
  if (status === 'creating')
    return (
      <ScreenLayout
        title="Setting up your wallet"
        subtitle="This only takes a moment."
        media={
          <StatusIcon tone="neutral">
            <ShieldIcon />
          </StatusIcon>
        }
      >
        <Spinner label="Creating your wallet" />
      </ScreenLayout>
    )
  return (
    <ScreenLayout
      title={isNewUser ? `Welcome${appName ? ` to ${appName}` : ''}` : 'All set!'}
      subtitle={isNewUser ? 'Your wallet is ready.' : 'Your account is secured.'}
      media={
        <StatusIcon tone="success">
          <CheckIcon />
        </StatusIcon>
      }
    >
      <p className="lk-visually-hidden" role="status">
        Wallet ready
      </p>
    </ScreenLayout>
  )
}

/** What a RECOVERY_REQUIRED error says the user must give (core puts the enclave's answer in details). */
function recoveryNeeded(
  error: LatchkeyError,
): { method: RecoveryMethod; entropyId: string } | null {
  const details = error.details as { recovery_method?: RecoveryMethod; entropy_id?: string }
  if (!details?.recovery_method || !details.entropy_id) return null
  return { method: details.recovery_method, entropyId: details.entropy_id }
}
