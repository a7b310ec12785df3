import type { UserMessage } from '@latchkey/protocol/errors'
import { AlertIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'

export interface FailureScreenProps {
  /** From the catalogue (`errorMessages[code]`): screens never invent wording. */
  message: UserMessage
  onClose(): void
}

/**
 * A failure the user can only close: the message and a Close button, no
 * Retry (spec 02 "Create embedded wallet … on error it shows a message and a
 * Close button"; spec 03 "Connect wallet … On failure … and a Close button").
 */
export function FailureScreen({ message, onClose }: FailureScreenProps) {
  return (
    <ScreenLayout
      title={message.title}
      subtitle={message.detail}
      media={
        <StatusIcon tone="error">
          <AlertIcon />
        </StatusIcon>
      }
    >
      <p className="lk-visually-hidden" role="alert">
        {message.title}
      </p>
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-primary" onClick={onClose} autoFocus>
          Close
        </button>
      </div>
    </ScreenLayout>
  )
}
