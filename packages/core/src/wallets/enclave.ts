import type { EnclaveEvent } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { withMfa } from '../mfa/with-mfa.ts'
import { getEnclave } from './get-enclave.ts'

export { bindSessionsToEnclave } from './enclave-binding.ts'
export { attachEnclave } from './enclave-registry.ts'
export { getEnclave } from './get-enclave.ts'

interface EnclaveCallOptions {
  initTimeoutMs?: number
  notAuthenticated?: 'NOT_AUTHENTICATED' | 'WALLET_NOT_AUTHENTICATED'
}

/**
 * Sends an enclave request with the user's fresh access token. When the
 * server wants MFA first (MFA_REQUIRED), the user verifies through the
 * client's prompter and the request goes again (`withMfa`, docs/mfa.md).
 */
export function enclaveRequest<T>(
  client: LatchkeyClient,
  event: EnclaveEvent,
  data: Record<string, unknown>,
  options: EnclaveCallOptions = {},
): Promise<T> {
  return withMfa(client, () => enclaveCall<T>(client, event, data, options))
}

/** One enclave request with the user's fresh access token, as is (no MFA retry). */
export async function enclaveCall<T>(
  client: LatchkeyClient,
  event: EnclaveEvent,
  data: Record<string, unknown>,
  options: EnclaveCallOptions = {},
): Promise<T> {
  const accessToken = await client.session.getAccessToken()
  if (!accessToken) throw new LatchkeyError(options.notAuthenticated ?? 'NOT_AUTHENTICATED')
  return getEnclave(client).request<T>(
    event,
    { access_token: accessToken, ...data },
    { initTimeoutMs: options.initTimeoutMs },
  )
}
