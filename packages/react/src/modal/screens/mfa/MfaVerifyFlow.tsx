import { MFA_CODE_WAIT_MS } from '@latchkey/protocol/constants'
import { type ReactNode, useState } from 'react'
import { ChromeContext, useChrome } from '../../components/chrome.ts'
import { inOrder, VERIFY_ORDER } from './labels.ts'
import { MfaCodeScreen } from './MfaCodeScreen.tsx'
import { MfaPasskeyVerifyScreen } from './MfaPasskeyVerifyScreen.tsx'
import { MfaVerifyChooserScreen } from './MfaVerifyChooserScreen.tsx'
import type { MfaMethod, MfaVerifyProps } from './types.ts'

/** Where the verification is: the chooser, or one method. */
type Step = { screen: 'choose' } | { screen: 'method'; method: MfaMethod }

/**
 * Spec 02 "Multi-factor verification" / §4: with one method, straight to it
 * (SMS sends its code on entering); with several, 'Verify your identity'
 * first, and each method offers 'Choose another method'. It ends when
 * `submitCode` or `verifyWithPasskey` resolves (the parent closes it), on a
 * blocking error's Close, or on Cancel.
 *
 * @example
 * <MfaVerifyFlow methods={user.mfaMethods} passkeys={mfaPasskeys}
 *   sendSmsCode={…} submitCode={…} verifyWithPasskey={…} onCancel={close} />
 */
export function MfaVerifyFlow(props: MfaVerifyProps) {
  const { passkeys, phoneHint, sendSmsCode, submitCode, verifyWithPasskey, onCancel } = props
  const methods = inOrder(props.methods, VERIFY_ORDER)
  const only = methods.length === 1 ? methods[0] : undefined
  const [step, setStep] = useState<Step>(
    only ? { screen: 'method', method: only } : { screen: 'choose' },
  )
  const chrome = useChrome()
  const chooseAnother = methods.length > 1 ? () => setStep({ screen: 'choose' }) : undefined

  let screen: ReactNode
  if (step.screen === 'choose') {
    screen = (
      <MfaVerifyChooserScreen
        methods={methods}
        onChoose={(method) => setStep({ screen: 'method', method })}
        onCancel={onCancel}
      />
    )
  } else if (step.method === 'passkey') {
    screen = (
      <MfaPasskeyVerifyScreen
        passkeys={passkeys}
        verify={verifyWithPasskey}
        onChooseAnother={chooseAnother}
        onCancel={onCancel}
      />
    )
  } else {
    const method = step.method
    screen = (
      <MfaCodeScreen
        // A new screen (and, for SMS, a new code) each time a method is chosen.
        key={method}
        method={method}
        purpose="verify"
        phone={phoneHint}
        onSubmit={(code) => submitCode(method, code)}
        onResend={method === 'sms' ? sendSmsCode : undefined}
        sendOnMount={method === 'sms'}
        waitMs={MFA_CODE_WAIT_MS}
        onChooseAnother={chooseAnother}
        onCancel={onCancel}
      />
    )
  }
  // The close icon cancels, like 'Cancel'.
  return (
    <ChromeContext.Provider value={{ ...chrome, onClose: onCancel }}>
      {screen}
    </ChromeContext.Provider>
  )
}
