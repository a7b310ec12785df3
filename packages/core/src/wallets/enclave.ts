import type { EnclaveEvent } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { createEnclaveBridge, type EnclaveBridge } from '../enclave/bridge.ts'
import { LatchkeyError } from '../errors.ts'
import { withMfa } from '../mfa/with-mfa.ts'
import { bridges, enclavePageUrl } from './enclave-binding.ts'

export { attachEnclave, bindSessionsToEnclave } from './enclave-binding.ts'

/** The client's enclave bridge, framing the enclave page on first use. */
export function getEnclave(client: LatchkeyClient): EnclaveBridge {
  let bridge = bridges.get(client)
  if (!bridge) {
    bridge = createEnclaveBridge({ url: enclavePageUrl(client) })
    bridges.set(client, bridge)
  }
  return bridge
}

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
