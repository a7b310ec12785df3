import { CheckIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

/** Shown after a successful login while the post-login sequence runs; the modal closes 1.4 s later. */
export function SuccessScreen({ linked = false }: { linked?: boolean }) {
  return (
    <ScreenLayout
      title="Success!"
      subtitle={linked ? 'Your account is linked.' : "You're logged in."}
      media={
        <StatusIcon tone="success">
          <CheckIcon />
        </StatusIcon>
      }
    >
      <p className="lk-visually-hidden" role="status">
        {linked ? 'Account linked' : 'Logged in successfully'}
      </p>
    </ScreenLayout>
  )
}
