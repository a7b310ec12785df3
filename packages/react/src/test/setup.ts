import { errorMessages } from '@latchkey/protocol/errors'
import { configure } from '@testing-library/react'
import { registerErrorMessages } from '../../../core/src/error-messages.ts'

// `findBy*` and `waitFor` wait for an event, up to this ceiling. React holds a
// lazy screen's first reveal back for 300 ms of real time (its Suspense
// throttle), which a loaded CI machine can stretch: the ceiling is generous so
// that only a screen that never comes fails, never a slow one.
configure({ asyncUtilTimeout: 5_000 })

// The page after the error catalogue has arrived (core's error-messages.ts
// loads it with the modal or the first error; error-messages.test.ts covers
// the time before).
registerErrorMessages(errorMessages)
