import { useState } from 'react'
import { CheckIcon, CopyIcon, EyeIcon, EyeOffIcon } from '../../components/icons.tsx'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { useCopyFeedback } from '../../components/useCopyFeedback.ts'
import { QrCode } from '../../methods/wallet/QrCode.tsx'

/** Spec 02 §9: the authenticator QR code is 240 px. */
export const TOTP_QR_SIZE_PX = 240

/** What the setup key reads while hidden. */
export const MASKED_KEY = '••••••••••••••••'

export interface MfaTotpSetupScreenProps {
  /** The base32 setup key, for apps that cannot scan. */
  secret: string
  /** The `otpauth://totp/…` URI the QR code carries. */
  authUrl: string
  /** On to 'Enter enrollment code'. */
  onContinue(): void
  onBack?(): void
}

/**
 * Spec 02 "Authenticator enrollment": 'Scan QR code' with the code (240 px)
 * and the setup key, masked until shown, copyable either way; Continue.
 */
export function MfaTotpSetupScreen({
  secret,
  authUrl,
  onContinue,
  onBack,
}: MfaTotpSetupScreenProps) {
  const [shown, setShown] = useState(false)
  const { copy, copied, confirmIcon } = useCopyFeedback()
  return (
    <ScreenLayout
      title="Scan QR code"
      subtitle="Scan this code with your authenticator app, or enter the setup key in it."
      onBack={onBack}
    >
      <div className="lk-stack">
        <div className="lk-qr-wrap">
          <QrCode
            value={authUrl}
            size={TOTP_QR_SIZE_PX}
            label="QR code for your authenticator app"
          />
        </div>
        <div className="lk-info lk-row">
          <span className="lk-passkey-info">
            <strong>Setup key</strong>
            <code
              data-testid="totp-secret"
              style={{ overflowWrap: 'anywhere', wordBreak: 'break-all' }}
            >
              {shown ? secret : MASKED_KEY}
            </code>
          </span>
          <span className="lk-row">
            <button
              type="button"
              className="lk-icon-btn"
              aria-label={shown ? 'Hide setup key' : 'Show setup key'}
              aria-pressed={shown}
              onClick={() => setShown((s) => !s)}
            >
              {shown ? <EyeOffIcon /> : <EyeIcon />}
            </button>
            <button
              type="button"
              className="lk-icon-btn"
              aria-label={copied ? 'Copied' : 'Copy setup key'}
              onClick={() => copy(secret)}
            >
              {confirmIcon ? <CheckIcon /> : <CopyIcon />}
            </button>
          </span>
        </div>
        <div className="lk-actions">
          <button type="button" className="lk-btn lk-btn-primary" onClick={onContinue}>
            Continue
          </button>
        </div>
      </div>
    </ScreenLayout>
  )
}
