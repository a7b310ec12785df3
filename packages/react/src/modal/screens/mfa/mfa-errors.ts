import { LatchkeyError, toLatchkeyError } from '@latchkey/core'
import { type ErrorCode, errorMessages, userMessageLine } from '@latchkey/protocol/errors'

/**
 * Spec 02 §8: these end the verification; the code boxes give way to the
 * message and a Close. Every other failure is shown inline and the user
 * tries again.
 */
const BLOCKING: ReadonlySet<ErrorCode> = new Set<ErrorCode>(['MFA_MAX_ATTEMPTS', 'MFA_TIMEOUT'])

export const isBlockingMfaError = (error: LatchkeyError) => BLOCKING.has(error.code)

const seconds = (value: unknown): number | undefined => {
  const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : undefined
}
const field = (value: unknown, key: string): unknown =>
  typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined

/**
 * Seconds until the server accepts another try, when it said so: the error's
 * `retryAfter`, else `retry_after` in its `details`, which may hold the
 * server's whole body (`{ code, message, details: { retry_after } }`) or
 * just its details (`{ retry_after }`). Anything else: undefined.
 */
export function retryAfterSeconds(error: unknown): number | undefined {
  if (!(error instanceof LatchkeyError)) return undefined
  const { details } = error
  return (
    seconds(error.retryAfter) ??
    seconds(field(details, 'retry_after')) ??
    seconds(field(field(details, 'details'), 'retry_after'))
  )
}

/** '45 seconds', '1 minute', '15 minutes', '2 hours' (rounded up). */
export function formatWait(totalSeconds: number): string {
  const unit = (n: number, name: string) => `${n} ${name}${n === 1 ? '' : 's'}`
  if (totalSeconds < 60) return unit(Math.ceil(totalSeconds), 'second')
  if (totalSeconds < 3600) return unit(Math.ceil(totalSeconds / 60), 'minute')
  return unit(Math.ceil(totalSeconds / 3600), 'hour')
}

const HINTED_WAIT = /try again in (\d+) seconds\./i

/**
 * The catalogue's line for `error`, with the real wait when the server gave
 * one longer than the spec's hint (spec 02 §9: 10 s, 30 s): "… Please close
 * this window and try again in 15 minutes."
 */
export function mfaErrorMessage(cause: unknown): string {
  const error = toLatchkeyError(cause)
  const line = userMessageLine(errorMessages[error.code] ?? errorMessages.INTERNAL_ERROR)
  const wait = retryAfterSeconds(error)
  if (wait === undefined) return line
  const hinted = HINTED_WAIT.exec(line)
  if (hinted) {
    return wait > Number(hinted[1])
      ? line.replace(HINTED_WAIT, `try again in ${formatWait(wait)}.`)
      : line
  }
  return `${line} Try again in ${formatWait(wait)}.`
}
