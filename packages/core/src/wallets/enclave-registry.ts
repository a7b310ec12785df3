import { sessionRoutes } from '@latchkey/protocol/session-routes'
import type { LatchkeyClient } from '../client.ts'
import type { EnclaveBridge } from '../enclave/bridge.ts'

// Which bridge is each client's: shared by the binding that the first chunk
// holds (enclave-binding.ts) and the bridge's lazy code (get-enclave.ts),
// which imports neither of the others (docs/first-load.md).

/** Each client's enclave bridge, once attached or made. */
export const bridges = new WeakMap<LatchkeyClient, EnclaveBridge>()

/** The client's enclave page: `{apiUrl}/apps/{appId}/embedded-wallets`. */
export const enclavePageUrl = (client: LatchkeyClient) =>
  `${client.apiUrl.replace(/\/+$/, '')}${sessionRoutes.enclavePage(client.appId)}`

/** Uses `bridge` as the client's enclave (tests, or a host that frames the enclave itself). */
export function attachEnclave(client: LatchkeyClient, bridge: EnclaveBridge): void {
  bridges.set(client, bridge)
}
