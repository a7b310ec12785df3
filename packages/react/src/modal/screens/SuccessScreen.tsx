import { CheckIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

const SUBTITLES = {
  login: "You're logged in.",
  link: 'Your account is linked.',
  update: 'Your account is updated.',
} as const

/** What a screen reader hears (the subtitle is read with the heading). */
const STATUS = {
  login: 'Logged in successfully',
  link: 'Account linked',
  update: 'Account updated',
}

/** Shown after a successful login while the post-login sequence runs; the modal closes 1.4 s later. */
export function SuccessScreen({ intent = 'login' }: { intent?: keyof typeof SUBTITLES }) {
  return (
    <ScreenLayout
      title="Success!"
      subtitle={SUBTITLES[intent]}
      media={
        <StatusIcon tone="success">
          <CheckIcon />
        </StatusIcon>
      }
    >
      <p className="lk-visually-hidden" role="status">
        {STATUS[intent]}
      </p>
    </ScreenLayout>
  )
}
