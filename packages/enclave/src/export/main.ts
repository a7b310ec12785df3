import { z } from 'zod'
import { createServerApi } from '../page/api.ts'
import { readConfig } from '../page/config.ts'
import { loadPageDeviceKey } from '../page/device-key.ts'
import { IndexedDbDeviceKeyStore } from '../page/device-key-store.ts'
import { IndexedDbDeviceShareStore } from '../page/store.ts'
import { startExportPage } from './page.ts'

/**
 * The export page's entry (built into dist/export.js, served at
 * /apps/export.js). Reads the config the server inlined, announces itself to
 * the framing app, and waits for one `latchkey:export:init`. Its server calls
 * carry proofs of the same device key as the wallet page (same origin, same
 * IndexedDB).
 */
function main() {
  // No code generation: the page's CSP has no 'unsafe-eval'.
  z.config({ jitless: true })
  const config = readConfig(document)
  const key = loadPageDeviceKey(new IndexedDbDeviceKeyStore(globalThis.indexedDB), config.appId)
  const page = startExportPage({
    window,
    document,
    config,
    api: createServerApi({ appId: config.appId, proof: key.signProof }),
    store: new IndexedDbDeviceShareStore(globalThis.indexedDB),
    prefersDark: window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false,
  })
  // Drop the revealed key from the DOM when the frame goes away.
  window.addEventListener('pagehide', () => page.stop())
}

main()
