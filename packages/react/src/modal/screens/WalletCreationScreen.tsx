import {
  createWalletsOnLogin,
  embeddedWallets,
  type LatchkeyClient,
  toLatchkeyError,
} from '@latchkey/core'
import { WALLET_CREATED_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import type { ErrorCode } from '@latchkey/protocol/errors'
import { useEffect, useRef, useState } from 'react'
import { CheckIcon, ShieldIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { SetPasswordScreen } from './SetPasswordScreen.tsx'

export interface WalletCreationScreenProps {
  client: LatchkeyClient
  chains: Array<'ethereum' | 'solana'>
  isNewUser: boolean
  appName: string | null
  /** The app requires user-owned recovery: a new secret is created with a password (spec 02). */
  requirePassword?: boolean
  /** Wallets are ready; the modal may close. */
  onDone(): void
  /** Creation failed; the user has been logged out (spec 02). */
  onFailed(code: ErrorCode): void
}

/**
 * The post-login wallet step: creates the wallets in the enclave, then greets
 * the user ("Welcome to {app}" when new, "All set!" otherwise) and closes
 * after 2.5 s. A failure logs the user out and reports
 * `embedded_wallet_creation_failure_logout`.
 */
export function WalletCreationScreen(props: WalletCreationScreenProps) {
  const { client, chains, requirePassword, onDone } = props
  const [needsPassword] = useState(
    () =>
      !!requirePassword &&
      !embeddedWallets(client.session.getState().user).some((w) => !w.imported),
  )
  if (needsPassword)
    // The password wizard, started by the app: no Cancel; it creates the
    // wallets with the password and closes itself 1.4 s after success.
    return (
      <SetPasswordScreen
        request={{
          screen: 'set-password',
          automatic: true,
          setPassword: (password) =>
            createWalletsOnLogin(client, chains, { method: 'user-passcode', password }),
        }}
        onSet={() => {}}
        onClose={onDone}
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
}: WalletCreationScreenProps) {
  const [status, setStatus] = useState<'creating' | 'done'>('creating')
  const callbacks = useRef({ onDone, onFailed })
  callbacks.current = { onDone, onFailed }
  const started = useRef(false)

  useEffect(() => {
    if (started.current) return
    started.current = true
    createWalletsOnLogin(client, chains)
      .then(() => setStatus('done'))
      .catch(async (error: unknown) => {
        const code = toLatchkeyError(error).code
        client.trackEvent('embedded_wallet_creation_failure_logout', { code })
        await client.session.logout()
        callbacks.current.onFailed(code)
      })
  }, [client, chains])

  useEffect(() => {
    if (status !== 'done') return
    const timer = setTimeout(() => callbacks.current.onDone(), WALLET_CREATED_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [status])

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
