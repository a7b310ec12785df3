import { z } from 'zod'
import { createServerApi } from './api.ts'
import { startChannel } from './channel.ts'
import { readConfig } from './config.ts'
import { createHandlers } from './handlers.ts'
import { IndexedDbDeviceShareStore } from './store.ts'

/**
 * The enclave page's entry (built into dist/enclave.js). Reads the config the
 * server inlined, then answers the host app's requests. Not framed, or
 * framed by an origin the app does not allow: it stays silent.
 */
function main() {
  // No code generation: the page's CSP has no 'unsafe-eval'.
  z.config({ jitless: true })
  const config = readConfig(document)
  const handlers = createHandlers({
    appId: config.appId,
    api: createServerApi({ appId: config.appId }),
    store: new IndexedDbDeviceShareStore(globalThis.indexedDB),
    logger: console,
  })
  startChannel({ window, config, handlers })
}

main()
