import { errorMessages } from '@latchkey/protocol/errors'
import { configure } from '@testing-library/react'
import { beforeAll } from 'vitest'
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

// Files share one page per worker (`isolate: false`): what one file left in
// the page's storage (a logged-in session, a pending redirect) must not reach
// the next, whichever files a worker happens to run together.
beforeAll(() => {
  globalThis.localStorage?.clear()
  globalThis.sessionStorage?.clear()
  if (typeof document === 'undefined') return
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim()
    // biome-ignore lint/suspicious/noDocumentCookie: happy-dom's page has no Cookie Store API
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  }
})
