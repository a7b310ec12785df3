import type { UserMessage } from './user-message.ts'

// The part of the error vocabulary a page needs before anything failed: the
// EIP-1193 errors and how a message reads as one line. No catalogue and no
// code list here, so an SDK's first load can import this without them
// (`@latchkey/protocol/errors` re-exports it with the rest; import the
// types from there).

/**
 * EIP-1193 errors a wallet screen raises itself (spec 03 §8): closing it
 * without signing is the user's rejection, code 4001.
 */
export const providerErrors = {
  userRejectedRequest: { code: 4001, message: 'The user rejected the request.' },
  unauthorized: {
    code: 4100,
    message: 'The requested method and/or account has not been authorized by the user.',
  },
  unsupportedMethod: { code: 4200, message: 'The Provider does not support the requested method.' },
  disconnected: { code: 4900, message: 'Disconnected' },
  chainDisconnected: { code: 4901, message: 'Unsupported chainId' },
  unrecognizedChain: { code: 4902, message: 'Unrecognized chain ID.' },
  resourceUnavailable: { code: -32002, message: 'Request already pending.' },
  internal: { code: -32603, message: 'Internal error.' },
} as const

/**
 * A message as one line, for an inline alert: the title, then the detail
 * ("You can't remove your only login method. Link another login method first.").
 */
export function userMessageLine({ title, detail }: UserMessage): string {
  if (!detail) return title
  return `${/[.!?]$/.test(title) ? title : `${title}.`} ${detail}`
}
