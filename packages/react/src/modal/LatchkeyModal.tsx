import { getMfaPrompter } from '@latchkey/core'
import { MODAL_OPEN_DELAY_MS, MODAL_RESET_DELAY_MS } from '@latchkey/protocol/constants'
import { useCallback, useEffect, useId, useInsertionEffect, useRef, useState } from 'react'
import { useUiState } from '../context.ts'
import { useResolvedConfig } from '../hooks/useResolvedConfig.ts'
import type { LatchkeyInstance, LoginResult } from '../store.ts'
import { CaptchaGate } from './captcha/CaptchaGate.tsx'
import { ChromeContext } from './components/chrome.ts'
import { Dialog } from './components/Dialog.tsx'
import { LoginFlow } from './LoginFlow.tsx'
import { MfaVerifyOverlay } from './MfaVerifyOverlay.tsx'
import { injectStyles } from './styles.ts'
import { themeProps } from './theme.ts'
import { WalletScreen } from './WalletScreen.tsx'

/**
 * The dialog: the login flow, or a wallet screen opened by a wallet hook
 * (`openWalletScreen`). Opens 15 ms after `login()` (so the enter transition
 * runs), and keeps its last screen for 500 ms after closing before resetting
 * (spec 01 §9). Loaded lazily: nothing here is in the provider's chunk.
 */
export default function LatchkeyModal({ instance }: { instance: LatchkeyInstance }) {
  useInsertionEffect(() => injectStyles(), [])
  const ui = useUiState(instance)
  const { attempt, loginOptions, walletRequest, mfaOpen } = ui
  // The MFA verification opens the dialog too, over whatever it shows (docs/mfa.md).
  const open = ui.open || mfaOpen
  const config = useResolvedConfig(instance)
  const titleId = useId()
  const [mounted, setMounted] = useState(open)
  const [visible, setVisible] = useState(false)
  const wasOpen = useRef(false)

  useEffect(() => {
    if (open) {
      wasOpen.current = true
      setMounted(true)
      const timer = setTimeout(() => setVisible(true), MODAL_OPEN_DELAY_MS)
      return () => clearTimeout(timer)
    }
    setVisible(false)
    if (wasOpen.current) {
      wasOpen.current = false
      // Focus returns to whatever opened the modal.
      const opener = instance.opener.current
      if (opener?.isConnected) opener.focus()
    }
    const timer = setTimeout(() => setMounted(false), MODAL_RESET_DELAY_MS)
    return () => clearTimeout(timer)
  }, [open, instance])

  const close = useCallback(() => {
    // Closing during MFA cancels the verification only: the screen under it stays.
    if (instance.getUiState().mfaOpen) getMfaPrompter(instance.client).cancel()
    else instance.closeModal()
  }, [instance])
  const finish = useCallback(
    (result: LoginResult) => {
      instance.closeModal()
      instance.emitLoginEvent({ type: 'complete', result })
    },
    [instance],
  )

  if (!mounted) return null
  return (
    <Dialog
      open={open}
      visible={visible}
      onClose={close}
      titleId={titleId}
      rootProps={themeProps(config)}
    >
      <ChromeContext.Provider value={{ titleId, onClose: close }}>
        {mfaOpen && <MfaVerifyOverlay client={instance.client} />}
        {/* The screen under the verification keeps its state; nothing is under it when MFA opened the dialog. */}
        {(ui.open || !mfaOpen) && (
          <div style={mfaOpen ? { display: 'none' } : { display: 'contents' }}>
            {walletRequest ? (
              <WalletScreen
                key={attempt}
                instance={instance}
                request={walletRequest}
                onClose={close}
              />
            ) : (
              // Login starts may wait for the captcha: its screen shows over the flow (docs/captcha.md).
              <CaptchaGate instance={instance} open={open}>
                <LoginFlow
                  key={attempt}
                  instance={instance}
                  loginOptions={loginOptions}
                  onFinished={finish}
                />
              </CaptchaGate>
            )}
          </div>
        )}
      </ChromeContext.Provider>
    </Dialog>
  )
}
