import { errorMessages } from '@latchkey/protocol/errors'
import { UserIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

/**
 * Spec 02 "Allowlist and limit screens": a test app already has as many
 * users as it may (`max_users`), so this sign-up was refused. 'Go back'
 * returns to the landing screen, where an existing user can still log in.
 */
export function UserLimitScreen({ onBack }: { onBack(): void }) {
  return (
    <ScreenLayout
      title={errorMessages.USER_LIMIT_REACHED.title}
      media={
        <StatusIcon tone="error">
          <UserIcon />
        </StatusIcon>
      }
    >
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-secondary" onClick={onBack} autoFocus>
          Go back
        </button>
      </div>
    </ScreenLayout>
  )
}
