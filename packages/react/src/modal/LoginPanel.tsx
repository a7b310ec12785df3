import { useCallback, useId, useInsertionEffect } from 'react'
import { useResolvedConfig } from '../hooks/useResolvedConfig.ts'
import type { LatchkeyInstance, LoginOptions, LoginResult } from '../store.ts'
import { CaptchaGate } from './captcha/CaptchaGate.tsx'
import { ChromeContext } from './components/chrome.ts'
import { LoginFlow } from './LoginFlow.tsx'
import { injectStyles } from './styles.ts'
import { themeProps } from './theme.ts'

export interface LoginPanelProps {
  instance: LatchkeyInstance
  loginOptions: LoginOptions
  className?: string
}

/** The login screens drawn in place (standalone mode): same flow as the dialog, no overlay. */
export default function LoginPanel({ instance, loginOptions, className }: LoginPanelProps) {
  useInsertionEffect(() => injectStyles(), [])
  const config = useResolvedConfig(instance)
  const titleId = useId()
  const finish = useCallback(
    (result: LoginResult) => instance.emitLoginEvent({ type: 'complete', result }),
    [instance],
  )
  return (
    <div className={className ? `lk-root ${className}` : 'lk-root'} {...themeProps(config)}>
      <section className="lk-panel" aria-labelledby={titleId}>
        <ChromeContext.Provider value={{ titleId }}>
          {/* The panel is Latchkey's UI, not headless: it runs the captcha like the dialog. */}
          <CaptchaGate instance={instance} open>
            <LoginFlow instance={instance} loginOptions={loginOptions} onFinished={finish} />
          </CaptchaGate>
        </ChromeContext.Provider>
      </section>
    </div>
  )
}
