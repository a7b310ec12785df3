import { type ReactNode, useRef, useState } from 'react'
import { ChromeContext, useChrome } from '../../components/chrome.ts'
import { MfaCodeScreen } from './MfaCodeScreen.tsx'
import { MfaEnrolledScreen } from './MfaEnrolledScreen.tsx'
import { MfaIntroScreen } from './MfaIntroScreen.tsx'
import { MfaMethodListScreen } from './MfaMethodListScreen.tsx'
import { MfaPasskeyListScreen } from './MfaPasskeyListScreen.tsx'
import { MfaPasskeySetupScreen } from './MfaPasskeySetupScreen.tsx'
import { MfaRemoveScreen } from './MfaRemoveScreen.tsx'
import { MfaSmsSetupScreen } from './MfaSmsSetupScreen.tsx'
import { MfaTotpSetupScreen } from './MfaTotpSetupScreen.tsx'
import { mfaErrorMessage } from './mfa-errors.ts'
import type { MfaEnrollmentProps, MfaMethod } from './types.ts'

type TotpSetup = { secret: string; authUrl: string }

/** Where the user is; everything else (methods, passkeys) comes from props. */
type Step =
  | { screen: 'intro' }
  | { screen: 'list' }
  | { screen: 'totp-setup'; setup: TotpSetup }
  | { screen: 'totp-code'; setup: TotpSetup }
  | { screen: 'sms-phone'; phone?: string }
  | { screen: 'sms-code'; phone: string }
  | { screen: 'passkey-setup' }
  | { screen: 'passkey-list' }
  | { screen: 'enrolled'; method: MfaMethod }
  | { screen: 'remove'; method: MfaMethod }

export interface MfaEnrollmentFlowProps extends MfaEnrollmentProps {
  /** ISO 3166 country the SMS phone entry starts with; default US. */
  defaultCountry?: string
}

/**
 * Spec 02 "Multi-factor enrollment and management" / §4: 'Transaction
 * Protection', then the method list; a method's enrollment (authenticator:
 * QR code, then its code; SMS: phone, then its code, back returning to the
 * phone; passkey: enabled directly when exactly one is linked, else set up
 * or chosen from the list) ends on its 'added' screen and returns to the
 * list; the remove icon asks first, then unenrolls.
 *
 * @example
 * <MfaEnrollmentFlow allowedMethods={config.mfaMethods} enabledMethods={user.mfaMethods}
 *   passkeys={passkeys} smsUnavailable={!!user.phone} … onClose={close} />
 */
export function MfaEnrollmentFlow(props: MfaEnrollmentFlowProps) {
  const { passkeys, onClose } = props
  const [step, setStep] = useState<Step>({ screen: props.skipIntro ? 'list' : 'intro' })
  const [busy, setBusy] = useState<MfaMethod | null>(null)
  const [error, setError] = useState<string | null>(null)
  // A passkey linked by 'Add a new passkey' whose enabling failed: a retry only enables it.
  const added = useRef<string | null>(null)
  const chrome = useChrome()

  const go = (next: Step) => {
    setError(null)
    setStep(next)
  }
  const toList = () => go({ screen: 'list' })
  const enrolled = (method: MfaMethod) => go({ screen: 'enrolled', method })

  const start = async (method: MfaMethod, operation: () => Promise<void>) => {
    setBusy(method)
    setError(null)
    try {
      await operation()
    } catch (cause) {
      setError(mfaErrorMessage(cause))
    } finally {
      setBusy(null)
    }
  }

  const choose = (method: MfaMethod) => {
    if (method === 'sms') return go({ screen: 'sms-phone' })
    if (method === 'totp') {
      return void start('totp', async () =>
        go({ screen: 'totp-setup', setup: await props.initTotp() }),
      )
    }
    // Spec 02 §4: exactly one linked passkey is enabled directly.
    const [only, ...others] = passkeys
    if (!only) return go({ screen: 'passkey-setup' })
    if (others.length > 0) return go({ screen: 'passkey-list' })
    void start('passkey', async () => {
      await props.enablePasskeys([only.credentialId])
      enrolled('passkey')
    })
  }

  const mfaPasskeys = passkeys.filter((passkey) => passkey.enrolledInMfa)
  let screen: ReactNode
  switch (step.screen) {
    case 'intro':
      screen = <MfaIntroScreen onContinue={toList} onNotNow={onClose} />
      break
    case 'list':
      screen = (
        <MfaMethodListScreen
          allowedMethods={props.allowedMethods}
          enabledMethods={props.enabledMethods}
          smsUnavailable={props.smsUnavailable}
          alsoChoosable={mfaPasskeys.length < passkeys.length ? ['passkey'] : []}
          busy={busy}
          error={error}
          onChoose={choose}
          onRemove={(method) => go({ screen: 'remove', method })}
          onDone={onClose}
        />
      )
      break
    case 'totp-setup':
      screen = (
        <MfaTotpSetupScreen
          secret={step.setup.secret}
          authUrl={step.setup.authUrl}
          onContinue={() => go({ screen: 'totp-code', setup: step.setup })}
          onBack={toList}
        />
      )
      break
    case 'totp-code':
      screen = (
        <MfaCodeScreen
          method="totp"
          purpose="enroll"
          onSubmit={async (code) => {
            await props.submitTotp(code)
            enrolled('totp')
          }}
          onBack={() => go({ screen: 'totp-setup', setup: step.setup })}
          onCancel={toList}
          onClose={onClose}
        />
      )
      break
    case 'sms-phone':
      screen = (
        <MfaSmsSetupScreen
          defaultCountry={props.defaultCountry}
          defaultPhone={step.phone}
          onSubmit={async (phone) => {
            await props.initSms(phone)
            go({ screen: 'sms-code', phone })
          }}
          onBack={toList}
        />
      )
      break
    case 'sms-code': {
      const { phone } = step
      screen = (
        <MfaCodeScreen
          method="sms"
          purpose="enroll"
          phone={phone}
          onSubmit={async (code) => {
            await props.submitSms(phone, code)
            enrolled('sms')
          }}
          onResend={() => props.initSms(phone)}
          // Spec 02 §4: back from verify returns to enroll (the phone entry).
          onBack={() => go({ screen: 'sms-phone', phone })}
          onCancel={toList}
          onClose={onClose}
        />
      )
      break
    }
    case 'passkey-setup':
      screen = (
        <MfaPasskeySetupScreen
          onAdd={async () => {
            added.current ??= (await props.addPasskey()).credentialId
            await props.enablePasskeys([added.current])
            added.current = null
            enrolled('passkey')
          }}
          onBack={toList}
        />
      )
      break
    case 'passkey-list':
      screen = (
        <MfaPasskeyListScreen
          passkeys={passkeys}
          onEnable={async (credentialIds) => {
            await props.enablePasskeys(credentialIds)
            enrolled('passkey')
          }}
          onAdd={props.addPasskey}
          onBack={toList}
        />
      )
      break
    case 'enrolled':
      screen = <MfaEnrolledScreen method={step.method} onDone={toList} />
      break
    case 'remove': {
      const { method } = step
      // One MFA passkey: remove that one; several: all of them (the confirm says how many).
      const credentialId =
        method === 'passkey' && mfaPasskeys.length === 1 ? mfaPasskeys[0]?.credentialId : undefined
      screen = (
        <MfaRemoveScreen
          method={method}
          passkeyCount={mfaPasskeys.length}
          onConfirm={async () => {
            await props.unenroll(method, credentialId)
            toList()
          }}
          onCancel={toList}
        />
      )
      break
    }
  }
  // The close icon closes, like 'Not now' and Done.
  return <ChromeContext.Provider value={{ ...chrome, onClose }}>{screen}</ChromeContext.Provider>
}
