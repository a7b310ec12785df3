import type { ErrorCode, UserMessage } from '@latchkey/protocol/errors'

// The user-facing catalogue (spec 01 §8) is the largest part of the error
// vocabulary, and nothing needs it until something fails: it is not part of
// the SDK's first load. It arrives with the modal (which registers it), or on
// the first error that comes from the server or the enclave (http.ts,
// enclave/bridge.ts wait for it before they make the error).

export type ErrorMessages = Record<ErrorCode, UserMessage>

let messages: ErrorMessages | undefined
let loading: Promise<ErrorMessages> | undefined

/** The catalogue if it has arrived; undefined before. */
export const loadedErrorMessages = (): ErrorMessages | undefined => messages

/** Makes `catalogue` the one errors read (the modal's chunk has it already). */
export function registerErrorMessages(catalogue: ErrorMessages): void {
  messages = catalogue
}

/**
 * The catalogue, loading it (its own chunk) the first time.
 *
 * @example
 * const catalogue = await loadErrorMessages()
 * catalogue.INVALID_CODE.title // 'Invalid code'
 */
export function loadErrorMessages(): Promise<ErrorMessages> {
  if (messages) return Promise.resolve(messages)
  loading ??= import('@latchkey/protocol/errors').then((module) => {
    messages ??= module.errorMessages
    return messages
  })
  return loading
}

/** Whether `code` is one this client knows (a newer server may send others). */
export const isKnownCode = (catalogue: ErrorMessages, code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(catalogue, code)
