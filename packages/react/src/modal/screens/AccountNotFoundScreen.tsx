import { errorMessages } from '@latchkey/protocol/errors'
import { UserIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

/**
 * A login restricted to existing users found no account (spec 02 "Account
 * not found"). 'Try logging in again' returns to the landing screen with the
 * sign-up restriction still in force.
 */
export function AccountNotFoundScreen({ onRetry }: { onRetry: () => void }) {
  const { title, detail } = errorMessages.USER_DOES_NOT_EXIST
  return (
    <ScreenLayout
      title={title}
      media={
        <StatusIcon tone="neutral">
          <UserIcon />
        </StatusIcon>
      }
    >
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-primary" onClick={onRetry} autoFocus>
          {detail}
        </button>
      </div>
    </ScreenLayout>
  )
}
