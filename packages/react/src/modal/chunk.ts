// The one entry of the lazily loaded modal chunk: dialog, standalone panel, screens, styles.
import { registerErrorMessages } from '@latchkey/core'
import { errorMessages } from '@latchkey/protocol/errors'

// The screens word errors from the catalogue; so do the errors they show
// (core's error-messages.ts: the catalogue is not in the SDK's first load).
registerErrorMessages(errorMessages)

export { default as LatchkeyModal } from './LatchkeyModal.tsx'
export { default as LoginPanel } from './LoginPanel.tsx'
