import { routes } from '@latchkey/protocol/routes'
import type { EnclaveEvent } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { createEnclaveBridge, type EnclaveBridge } from '../enclave/bridge.ts'
import { LatchkeyError } from '../errors.ts'

const bridges = new WeakMap<LatchkeyClient, EnclaveBridge>()

/** Uses `bridge` as the client's enclave (tests, or a host that frames the enclave itself). */
export function attachEnclave(client: LatchkeyClient, bridge: EnclaveBridge): void {
  bridges.set(client, bridge)
}

/** The client's enclave bridge, framing the enclave page on first use. */
export function getEnclave(client: LatchkeyClient): EnclaveBridge {
  let bridge = bridges.get(client)
  if (!bridge) {
    const url = `${client.apiUrl.replace(/\/+$/, '')}${routes.enclavePage(client.appId)}`
    bridge = createEnclaveBridge({ url })
    bridges.set(client, bridge)
  }
  return bridge
}

/** Sends an enclave request with the user's fresh access token. */
export async function enclaveRequest<T>(
  client: LatchkeyClient,
  event: EnclaveEvent,
  data: Record<string, unknown>,
  options: {
    initTimeoutMs?: number
    notAuthenticated?: 'NOT_AUTHENTICATED' | 'WALLET_NOT_AUTHENTICATED'
  } = {},
): Promise<T> {
  const accessToken = await client.session.getAccessToken()
  if (!accessToken) throw new LatchkeyError(options.notAuthenticated ?? 'NOT_AUTHENTICATED')
  return getEnclave(client).request<T>(
    event,
    { access_token: accessToken, ...data },
    { initTimeoutMs: options.initTimeoutMs },
  )
}
