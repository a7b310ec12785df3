import {
  initSmsEnrollment,
  initTotpEnrollment,
  LatchkeyError,
  linkPasskey,
  type PasskeyAccount,
  submitMfaEnrollment,
  unenrollMfa,
} from '@latchkey/core'
import { useMemo } from 'react'
import { useResolvedConfig } from '../hooks/useResolvedConfig.ts'
import { useSession } from '../hooks/useSession.ts'
import type { LatchkeyInstance } from '../instance.ts'
import { MfaEnrollmentFlow } from './screens/mfa/MfaEnrollmentFlow.tsx'

const passkeysOf = (accounts: ReadonlyArray<{ type: string }>) =>
  accounts.filter((account): account is PasskeyAccount => account.type === 'passkey')

export interface MfaEnrollmentScreenProps {
  instance: LatchkeyInstance
  /** 'Not now', Done, the close icon: the user is finished. */
  onClose(): void
}

/**
 * `showMfaEnrollmentModal()` (spec 02 "Multi-factor enrollment and
 * management"): the enrollment flow wired to core. Each call goes through
 * the enclave; one that changes factors while the user has one asks for a
 * verification first, drawn over this screen (docs/mfa.md). The user object
 * each call answers re-renders the list.
 */
export default function MfaEnrollmentScreen({ instance, onClose }: MfaEnrollmentScreenProps) {
  const { client } = instance
  const config = useResolvedConfig(instance)
  const { user } = useSession(client)
  const linked = user?.linkedAccounts ?? []
  const passkeys = useMemo(() => passkeysOf(linked), [linked])
  const done = () => {}
  return (
    <MfaEnrollmentFlow
      allowedMethods={config.mfaMethods}
      enabledMethods={user?.mfaMethods ?? []}
      passkeys={passkeys}
      // Spec 02 §6: SMS MFA is disabled while the user's phone is a login method.
      smsUnavailable={linked.some((account) => account.type === 'phone')}
      initTotp={() => initTotpEnrollment(client)}
      submitTotp={(code) => submitMfaEnrollment(client, { method: 'totp', code }).then(done)}
      initSms={(phoneNumber) => initSmsEnrollment(client, { phoneNumber })}
      submitSms={(phoneNumber, code) =>
        submitMfaEnrollment(client, { method: 'sms', phoneNumber, code }).then(done)
      }
      enablePasskeys={(credentialIds) =>
        submitMfaEnrollment(client, { method: 'passkey', credentialIds }).then(done)
      }
      addPasskey={async () => {
        const before = new Set(passkeysOf(linked).map((p) => p.credentialId))
        const added = passkeysOf((await linkPasskey(client)).linkedAccounts).find(
          (p) => !before.has(p.credentialId),
        )
        // The server answered a user without the passkey it just linked.
        if (!added) throw new LatchkeyError('PASSKEY_UNKNOWN_ERROR')
        return added
      }}
      unenroll={(method, credentialId) =>
        unenrollMfa(client, {
          method,
          credentialId,
          removeForLogin: method === 'passkey' ? config.unlinkPasskeyOnMfaRemoval : undefined,
        }).then(done)
      }
      onClose={onClose}
    />
  )
}
