import {
  getMfaPrompter,
  type LatchkeyClient,
  type PasskeyAccount,
  sendMfaSmsCode,
  verifyMfa,
} from '@latchkey/core'
import { useCallback, useSyncExternalStore } from 'react'
import { useSession } from '../hooks/useSession.ts'
import { AlertIcon } from './components/icons.tsx'
import { ScreenLayout } from './components/ScreenLayout.tsx'
import { StatusIcon } from './components/StatusIcon.tsx'
import { MfaVerifyFlow } from './screens/mfa/MfaVerifyFlow.tsx'
import { mfaErrorMessage } from './screens/mfa/mfa-errors.ts'

/** The user's passkeys enrolled in MFA, newest last. */
export function mfaPasskeysOf(linked: ReadonlyArray<{ type: string }>): PasskeyAccount[] {
  return linked.filter(
    (account): account is PasskeyAccount =>
      account.type === 'passkey' && (account as PasskeyAccount).enrolledInMfa,
  )
}

/** The client's pending MFA challenge, as React state. */
export function useMfaChallenge(client: LatchkeyClient) {
  const prompter = getMfaPrompter(client)
  return useSyncExternalStore(prompter.subscribe, prompter.getChallenge, prompter.getChallenge)
}

/**
 * Spec 02 "Multi-factor verification": drawn over the modal's current screen
 * while a wallet action waits for MFA (docs/mfa.md). Each verification goes
 * through the prompter, which counts the operation's attempts (4) and its
 * code wait (5 minutes); a wait or attempts that ran out show their blocking
 * message until closed. Cancel rejects the action with 'Verification canceled'.
 */
export function MfaVerifyOverlay({ client }: { client: LatchkeyClient }) {
  const prompter = getMfaPrompter(client)
  const challenge = useMfaChallenge(client)
  const { user } = useSession(client)
  const submitCode = useCallback(
    (method: 'totp' | 'sms', code: string) =>
      prompter.verify(() => verifyMfa(client, { method, code })),
    [client, prompter],
  )
  const verifyWithPasskey = useCallback(
    () => prompter.verify(() => verifyMfa(client, { method: 'passkey' })),
    [client, prompter],
  )
  if (!challenge) return null
  if (challenge.status === 'failed')
    return (
      <ScreenLayout
        title={mfaErrorMessage(challenge.error)}
        media={
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        }
      >
        <div className="lk-actions">
          <button
            type="button"
            className="lk-btn lk-btn-secondary"
            onClick={() => prompter.dismiss()}
            autoFocus
          >
            Close
          </button>
        </div>
      </ScreenLayout>
    )
  return (
    <MfaVerifyFlow
      methods={challenge.methods}
      passkeys={mfaPasskeysOf(user?.linkedAccounts ?? [])}
      sendSmsCode={() => sendMfaSmsCode(client)}
      submitCode={submitCode}
      verifyWithPasskey={verifyWithPasskey}
      onCancel={() => prompter.cancel()}
    />
  )
}
