import type { Hono } from 'hono'
import type { HonoEnv, Services } from '../http/context.ts'
import {
  createBundleLoader,
  ENCLAVE_CONFIG_ELEMENT_ID,
  enclaveBundlePath,
  jsonForScriptBlock,
  serveBundle,
  servePage,
} from './page.ts'

/** Where the export page loads its script from (same origin: CSP `script-src 'self'`). */
export const EXPORT_SCRIPT_PATH = '/apps/export.js'

/** The key-export page the host app frames (spec 03 "Key export"). */
export const enclaveExportPagePath = (appId: string) => `/apps/${appId}/embedded-wallets/export`

/** The built export bundle, beside enclave.js (see {@link enclaveBundlePath}). */
export const DEFAULT_EXPORT_BUNDLE_PATH = enclaveBundlePath('export.js')

export interface EnclaveExportPageOptions {
  /** The built `export.js` (default: {@link DEFAULT_EXPORT_BUNDLE_PATH}). */
  bundlePath?: string
}

/**
 * The export page HTML: the same inlined config block as the wallet page (the
 * page script reads it with packages/enclave/src/page/config.ts) and one
 * same-origin module script with SRI. Nothing inline runs, and there is no
 * inline style: the script styles the page through CSSOM.
 */
export function exportPageHtml(
  config: { appId: string; origins: string[] },
  integrity?: string,
): string {
  const integrityAttr = integrity ? ` integrity="${integrity}"` : ''
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="robots" content="noindex">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    '<meta name="color-scheme" content="light dark">' +
    '<title>Export wallet</title>' +
    `<script type="application/json" id="${ENCLAVE_CONFIG_ELEMENT_ID}">${jsonForScriptBlock(config)}</script>` +
    `<script type="module" src="${EXPORT_SCRIPT_PATH}"${integrityAttr}></script>` +
    '</head><body></body></html>'
  )
}

/**
 * Serves the embedded-wallet key-export page (security bar 44: the key is
 * shown only inside this page, on the enclave's origin; neither the host
 * page nor the server sees it in plaintext):
 *
 * - `GET /apps/:appId/embedded-wallets/export` — the page the host frames
 *   visibly in its modal. The wallet page's CSP: `frame-ancestors` is
 *   exactly the app's origins, `script-src 'self'`; but `connect-src 'self'`
 *   only (export never talks to a cloud drive). It inlines `{ appId, origins }`
 *   so the page knows whom it may talk to.
 * - `GET /apps/export.js` — the built page script (read once, kept in memory,
 *   ETag; 503 JSON while it is not built).
 *
 * The host's iframe needs `allow="clipboard-write"` for the copy buttons.
 *
 * @example
 * registerEnclavePage(app, services, { bundlePath: options.enclaveBundlePath })
 * registerEnclaveExportPage(app, services)
 */
export function registerEnclaveExportPage(
  hono: Hono<HonoEnv>,
  services: Services,
  options: EnclaveExportPageOptions = {},
): void {
  const bundlePath = options.bundlePath ?? DEFAULT_EXPORT_BUNDLE_PATH
  const loadBundle = createBundleLoader(bundlePath)
  serveBundle(hono, EXPORT_SCRIPT_PATH, loadBundle, () =>
    services.logger.warn(`the enclave export bundle is missing at ${bundlePath}`),
  )

  servePage(hono, services, enclaveExportPagePath(':appId'), loadBundle, exportPageHtml, () =>
    services.logger.warn(`the enclave export bundle is missing at ${bundlePath}`),
  )
}
