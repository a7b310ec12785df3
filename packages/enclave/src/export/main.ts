import { z } from 'zod'
import { createServerApi } from '../page/api.ts'
import { readConfig } from '../page/config.ts'
import { IndexedDbDeviceShareStore } from '../page/store.ts'
import { startExportPage } from './page.ts'

/**
 * The export page's entry (built into dist/export.js, served at
 * /apps/export.js). Reads the config the server inlined, announces itself to
 * the framing app, and waits for one `latchkey:export:init`.
 */
function main() {
  // No code generation: the page's CSP has no 'unsafe-eval'.
  z.config({ jitless: true })
  const config = readConfig(document)
  const page = startExportPage({
    window,
    document,
    config,
    api: createServerApi({ appId: config.appId }),
    store: new IndexedDbDeviceShareStore(globalThis.indexedDB),
    prefersDark: window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false,
  })
  // Drop the revealed key from the DOM when the frame goes away.
  window.addEventListener('pagehide', () => page.stop())
}

main()
