import type { EnclaveEvent } from '@latchkey/protocol/schemas'
import { sessionRoutes } from '@latchkey/protocol/session-routes'
import type { LatchkeyClient } from '../client.ts'
import { createEnclaveBridge, type EnclaveBridge } from '../enclave/bridge.ts'
import { LatchkeyError } from '../errors.ts'
import { withMfa } from '../mfa/with-mfa.ts'
import { ENCLAVE_KEY_WAIT_MS } from '../session-key.ts'

const bridges = new WeakMap<LatchkeyClient, EnclaveBridge>()

/** Uses `bridge` as the client's enclave (tests, or a host that frames the enclave itself). */
export function attachEnclave(client: LatchkeyClient, bridge: EnclaveBridge): void {
  bridges.set(client, bridge)
}

/** The client's enclave bridge, framing the enclave page on first use. */
export function getEnclave(client: LatchkeyClient): EnclaveBridge {
  let bridge = bridges.get(client)
  if (!bridge) {
    const url = `${client.apiUrl.replace(/\/+$/, '')}${sessionRoutes.enclavePage(client.appId)}`
    bridge = createEnclaveBridge({ url })
    bridges.set(client, bridge)
  }
  return bridge
}

/**
 * Binds every session the client logs in from now on to the enclave's
 * device key (docs/security.md "Key routes answer only to the enclave"):
 * installs a session key provider that asks the enclave for its key
 * thumbprint, and frames the enclave now, so that the key is known before
 * the user submits a login. A login waits at most {@link ENCLAVE_KEY_WAIT_MS}
 * for it. Where the enclave cannot run (plain HTTP off localhost) nothing is
 * installed: embedded wallets refuse to work there anyway. Returns what
 * uninstalls the provider.
 *
 * @example
 * const unbind = bindSessionsToEnclave(client)
 * await loginWithEmailCode(client, { email, code }) // sends latchkey-enclave-key
 */
export function bindSessionsToEnclave(client: LatchkeyClient): () => void {
  try {
    getEnclave(client)
  } catch (error) {
    if (!(error instanceof LatchkeyError && error.code === 'WALLET_PROXY_INSECURE'))
      console.warn('Latchkey: the wallet enclave could not be framed', error)
    return () => {}
  }
  client.setSessionKeyProvider(() =>
    getEnclave(client).keyThumbprint({ timeoutMs: ENCLAVE_KEY_WAIT_MS }),
  )
  return () => client.setSessionKeyProvider(null)
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
