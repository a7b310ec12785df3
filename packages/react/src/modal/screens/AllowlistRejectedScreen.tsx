import { errorMessages } from '@latchkey/protocol/errors'
import type { AppConfig } from '@latchkey/protocol/schemas'
import { LockIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

export interface AllowlistRejectedScreenProps {
  /** The app's wording (`allowlist_config`); each null field keeps the default. */
  config: AppConfig['allowlist_config'] | null
  /** 'Try another account': back to the landing screen. */
  onRetry(): void
}

const DEFAULT_CTA = 'Try another account'

/**
 * Spec 02 "Allowlist and limit screens": the login was refused because the
 * user is not on the app's allowlist. 'You don't have access to this app' /
 * 'Have you been invited?' / 'Try another account', each replaceable by the
 * app; with `error_cta_link` the button opens that page (a waitlist, say) in
 * a new tab instead of going back.
 */
export function AllowlistRejectedScreen({ config, onRetry }: AllowlistRejectedScreenProps) {
  const { title, detail } = errorMessages.ALLOWLIST_REJECTED
  const cta = config?.error_cta_text ?? DEFAULT_CTA
  return (
    <ScreenLayout
      title={config?.error_title ?? title}
      subtitle={config?.error_detail ?? detail}
      onBack={onRetry}
      media={
        <StatusIcon tone="neutral">
          <LockIcon />
        </StatusIcon>
      }
    >
      <div className="lk-actions">
        {config?.error_cta_link ? (
          <a
            className="lk-btn lk-btn-primary"
            href={config.error_cta_link}
            target="_blank"
            rel="noopener noreferrer"
          >
            {cta}
          </a>
        ) : (
          <button type="button" className="lk-btn lk-btn-primary" onClick={onRetry} autoFocus>
            {cta}
          </button>
        )}
      </div>
    </ScreenLayout>
  )
}
