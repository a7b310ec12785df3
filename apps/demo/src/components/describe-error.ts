import { LatchkeyError } from '@latchkey/react'

/**
 * A failure as the user should read it: a Latchkey error's catalogue wording
 * with what to do ("You can't remove your only login method. Link another
 * login method first."), not the error's technical message ('MFA canceled').
 */
export const describeError = (e: unknown) =>
  e instanceof LatchkeyError ? e.userMessageLine : e instanceof Error ? e.message : String(e)
