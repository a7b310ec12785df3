import {
  getMfaPrompter,
  type MfaChallenge,
  type MfaMethod,
  sendMfaSmsCode,
  verifyMfa,
} from '@latchkey/core'
import { useCallback, useMemo, useSyncExternalStore } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import { useSession } from './useSession.ts'

export interface UseMfaReturnType {
  /** The user's MFA methods (empty when logged out or not enrolled). */
  mfaMethods: MfaMethod[]
  /**
   * The wallet action waiting for MFA, or null: `pending` with the methods
   * to offer and the attempts left, or `failed` with the blocking error
   * (MFA_TIMEOUT, MFA_MAX_ATTEMPTS) until `cancel()`.
   */
  challenge: MfaChallenge | null
  /** Prepares a method: SMS sends a code to the enrolled phone; a passkey needs nothing. */
  init(method: MfaMethod): Promise<void>
  /**
   * Verifies: an authenticator or SMS code, or the passkey (its browser
   * prompt). The waiting action goes on when it passes; a wrong code rejects
   * with MFA_INVALID_CODE and the challenge stays, with one attempt less.
   * Without a waiting action it verifies this session anyway (15 minutes).
   */
  submit(method: 'totp' | 'sms', code: string): Promise<void>
  submit(method: 'passkey'): Promise<void>
  /** 'Cancel': the waiting action rejects with MFA_CANCELED ('Verification canceled'). */
  cancel(): void
}

/**
 * MFA verification for an app that draws its own UI
 * (`mfa: { noPromptOnMfaRequired: true }`, docs/mfa.md): render from
 * `challenge`, call `init` and `submit`. With the modal's prompt on, it
 * still verifies ahead of time (before a batch of signatures, say).
 *
 * @example
 * const { challenge, init, submit, cancel } = useMfa()
 * if (challenge?.status === 'pending') return <CodeForm onCode={(c) => submit('totp', c)} />
 */
export function useMfa(): UseMfaReturnType {
  const { client } = useLatchkeyInstance()
  const prompter = getMfaPrompter(client)
  const challenge = useSyncExternalStore(
    prompter.subscribe,
    prompter.getChallenge,
    prompter.getChallenge,
  )
  const { user } = useSession(client)
  const init = useCallback(
    async (method: MfaMethod) => {
      if (method === 'sms') await sendMfaSmsCode(client)
    },
    [client],
  )
  const submit = useCallback(
    async (method: MfaMethod, code?: string) => {
      const verify = () =>
        method === 'passkey'
          ? verifyMfa(client, { method })
          : verifyMfa(client, { method, code: code ?? '' })
      if (prompter.getChallenge()?.status === 'pending') await prompter.verify(verify)
      else await verify()
    },
    [client, prompter],
  ) as UseMfaReturnType['submit']
  const cancel = useCallback(() => prompter.cancel(), [prompter])
  const mfaMethods = useMemo(() => user?.mfaMethods ?? [], [user])
  return { mfaMethods, challenge, init, submit, cancel }
}
