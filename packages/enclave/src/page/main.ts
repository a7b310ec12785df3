import { z } from 'zod'
import { createServerApi } from './api.ts'
import { startChannel } from './channel.ts'
import { readConfig } from './config.ts'
import { loadPageDeviceKey } from './device-key.ts'
import { IndexedDbDeviceKeyStore } from './device-key-store.ts'
import { IndexedDbFarcasterSignerKeyStore } from './farcaster-signer-store.ts'
import { createHandlers } from './handlers.ts'
import { IndexedDbDeviceShareStore } from './store.ts'
import { createWarmKeys } from './warm-keys.ts'

/**
 * The enclave page's entry (built into dist/enclave.js). Reads the config the
 * server inlined, loads (or makes) this browser's device key, then answers
 * the host app's requests, each server call with a proof of that key. Not
 * framed, or framed by an origin the app does not allow: it stays silent.
 */
function main() {
  // No code generation: the page's CSP has no 'unsafe-eval'.
  z.config({ jitless: true })
  const config = readConfig(document)
  const key = loadPageDeviceKey(new IndexedDbDeviceKeyStore(globalThis.indexedDB), config.appId)
  const handlers = createHandlers({
    appId: config.appId,
    api: createServerApi({ appId: config.appId, proof: key.signProof }),
    store: new IndexedDbDeviceShareStore(globalThis.indexedDB),
    farcasterSignerKeys: new IndexedDbFarcasterSignerKeyStore(globalThis.indexedDB),
    logger: console,
    warmKeys: createWarmKeys({
      document,
      // This app's enclave pages in other tabs: a logout or MFA clear here ends their keys too.
      broadcast:
        typeof BroadcastChannel === 'function'
          ? new BroadcastChannel(`latchkey-warm-keys:${config.appId}`)
          : null,
    }),
  })
  startChannel({ window, config, handlers, keyThumbprint: key.thumbprint })
}

main()
