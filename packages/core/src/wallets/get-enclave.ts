import type { LatchkeyClient } from '../client.ts'
import { createEnclaveBridge, type EnclaveBridge } from '../enclave/bridge.ts'
import { bridges, enclavePageUrl } from './enclave-registry.ts'

/** The client's enclave bridge, framing the enclave page on first use. */
export function getEnclave(client: LatchkeyClient): EnclaveBridge {
  let bridge = bridges.get(client)
  if (!bridge) {
    bridge = createEnclaveBridge({ url: enclavePageUrl(client) })
    bridges.set(client, bridge)
  }
  return bridge
}
