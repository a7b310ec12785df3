import type { CaptchaState } from '@latchkey/core'
import { errorMessages } from '@latchkey/protocol/errors'
import { AlertIcon, CheckIcon, ShieldIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

/** Spec 01 §4: after the retries, the screen advises this. */
export const CAPTCHA_ADVICE = 'If you use an ad blocker or a VPN, try disabling it, then try again.'

/**
 * Spec 02 "Captcha screen": 'Checking that you are a human...' while the
 * captcha solves, Success, or the catalogue's error with Retry (and, after
 * the retries, the ad blocker / VPN advice).
 */
export function CaptchaScreen({ state, onRetry }: { state: CaptchaState; onRetry(): void }) {
  if (state.status === 'error') {
    const message = errorMessages[state.error ?? 'CAPTCHA_FAILED']
    return (
      <ScreenLayout
        title={message.title}
        subtitle={state.exhausted ? CAPTCHA_ADVICE : message.detail}
        media={
          <StatusIcon tone="error">
            <AlertIcon />
          </StatusIcon>
        }
      >
        <div className="lk-actions">
          <button type="button" className="lk-btn lk-btn-primary" onClick={onRetry} autoFocus>
            Retry
          </button>
        </div>
      </ScreenLayout>
    )
  }
  const success = state.status === 'success' || state.status === 'ready'
  return (
    <ScreenLayout
      title={success ? 'Success' : 'Checking that you are a human...'}
      media={
        <StatusIcon tone={success ? 'success' : 'neutral'}>
          {success ? <CheckIcon /> : <ShieldIcon />}
        </StatusIcon>
      }
    >
      <div className="lk-status" data-testid="captcha-screen">
        {success ? null : <Spinner label="Checking that you are a human" />}
      </div>
    </ScreenLayout>
  )
}
