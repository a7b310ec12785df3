import type { ErrorCode } from '@latchkey/protocol/errors'
import { EmailForm } from '../components/EmailForm.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'

export interface EmailEntryScreenProps {
  onSubmit(email: string): void
  sending: boolean
  error: ErrorCode | null
  /** When a refused send may be tried again (a 429's `retry_after`), for a countdown. */
  retryAt?: number
  onEdit(): void
  disablePlusEmails: boolean
  defaultValue?: string
  onBack(): void
  /** Default 'Log in with email'. */
  title?: string
}

/** The email input on its own screen: `hideDirectWeb2Inputs` makes email a landing button. */
export function EmailEntryScreen(props: EmailEntryScreenProps) {
  return (
    <ScreenLayout title={props.title ?? 'Log in with email'} onBack={props.onBack}>
      <EmailForm
        onSubmit={props.onSubmit}
        submitting={props.sending}
        error={props.error}
        retryAt={props.retryAt}
        onEdit={props.onEdit}
        defaultValue={props.defaultValue}
        disablePlusEmails={props.disablePlusEmails}
      />
    </ScreenLayout>
  )
}
