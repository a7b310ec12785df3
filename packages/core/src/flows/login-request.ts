import { Header } from '@latchkey/protocol/constants'
import type { AuthResponse } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'

/**
 * Sends a login request, one that creates a session: without a bearer token,
 * and with the enclave's key thumbprint (`latchkey-enclave-key`) when the
 * client has a session key provider, so that the server binds the new
 * session to the enclave's device key (docs/security.md "Key routes answer
 * only to the enclave"). Every login flow sends its final request through
 * here; refresh does not (a session is bound once, at login).
 *
 * @example
 * const response = await loginRequest(client, routes.emailAuthenticate, { email, code, mode })
 * const user = client.session.applyAuthResponse(response)
 */
export async function loginRequest<T extends AuthResponse = AuthResponse>(
  client: LatchkeyClient,
  path: string,
  body: unknown,
): Promise<T> {
  const key = await client.sessionKey()
  return client.http.request<T>(path, {
    body,
    auth: false,
    ...(key ? { headers: { [Header.enclaveKey]: key } } : {}),
  })
}
