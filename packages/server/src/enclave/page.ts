import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { errorMessages, isValidAppId, routes } from '@latchkey/protocol'
import type { Context, Hono } from 'hono'
import type { HonoEnv, Services } from '../http/context.ts'

/** Where the page loads its script from (same origin as the page: CSP `script-src 'self'`). */
export const ENCLAVE_SCRIPT_PATH = '/apps/enclave.js'
/** The id of the inlined JSON config the page reads (packages/enclave/src/page/config.ts). */
export const ENCLAVE_CONFIG_ELEMENT_ID = 'latchkey-enclave-config'

/**
 * Where a built enclave page script is. The compiled server (an installed
 * package runs dist/enclave/page.js) has it in its own dist/assets/, copied
 * there by its build (scripts/build-packages.mjs); from source in the
 * monorepo it is the enclave package's build output, packages/enclave/dist/
 * (`npm run build:enclave`).
 */
export function enclaveBundlePath(fileName: 'enclave.js' | 'export.js'): string {
  const fromSource = import.meta.url.endsWith('.ts')
  const relative = fromSource ? `../../../enclave/dist/${fileName}` : `../assets/${fileName}`
  return fileURLToPath(new URL(relative, import.meta.url))
}

/** The built page bundle (see {@link enclaveBundlePath}). */
export const DEFAULT_ENCLAVE_BUNDLE_PATH = enclaveBundlePath('enclave.js')

export interface EnclavePageOptions {
  /** The built `enclave.js` (default: {@link DEFAULT_ENCLAVE_BUNDLE_PATH}). */
  bundlePath?: string
}

export interface Bundle {
  body: string
  etag: string
  integrity: string
}

/**
 * An origin that is safe to put in a CSP source list and to compare exactly:
 * scheme, host and optional port, nothing else (no path, spaces, `;`, quotes
 * or wildcards). Apps store normalized origins already; this refuses anything
 * that was written to the database some other way.
 */
const SAFE_ORIGIN =
  /^https?:\/\/(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

export function safeFrameOrigins(origins: readonly string[]): string[] {
  return [...new Set(origins.filter((o) => typeof o === 'string' && SAFE_ORIGIN.test(o)))]
}

/**
 * JSON for a `<script type="application/json">` block: `<`, `>` and `&` are
 * escaped as `\u003c`… so `</script>` or `<!--` in a value cannot end the
 * block, and U+2028/U+2029 are escaped too. `JSON.parse` gives back the
 * original values.
 */
export function jsonForScriptBlock(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}

/**
 * The enclave page's CSP (security bar 43): only the app's exact origins may
 * frame it, and it may connect only to its own origin plus `connectOrigins`
 * (the wallet page: the Google APIs and CloudKit origins of cloud recovery).
 *
 * @example
 * enclaveCsp(['https://app.example.com'], ['https://www.googleapis.com'])
 * // "default-src 'none'; script-src 'self'; connect-src 'self' https://www.googleapis.com; frame-ancestors https://app.example.com; …"
 */
export function enclaveCsp(
  frameOrigins: readonly string[],
  connectOrigins: readonly string[] = [],
): string {
  const ancestors = frameOrigins.length > 0 ? frameOrigins.join(' ') : "'none'"
  const connect = ["'self'", ...safeFrameOrigins(connectOrigins)].join(' ')
  return [
    "default-src 'none'",
    "script-src 'self'",
    `connect-src ${connect}`,
    `frame-ancestors ${ancestors}`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ')
}

/** The page HTML: the inlined config and one same-origin module script, nothing inline that runs. */
export function enclavePageHtml(
  config: { appId: string; origins: string[] },
  integrity?: string,
): string {
  const integrityAttr = integrity ? ` integrity="${integrity}"` : ''
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="robots" content="noindex"><title>Latchkey wallet</title>' +
    `<script type="application/json" id="${ENCLAVE_CONFIG_ELEMENT_ID}">${jsonForScriptBlock(config)}</script>` +
    `<script type="module" src="${ENCLAVE_SCRIPT_PATH}"${integrityAttr}></script>` +
    '</head><body></body></html>'
  )
}

/** 503 while a bundle is not built (`npm run build:enclave`). */
export function unavailable(c: Context<HonoEnv>) {
  c.header('Cache-Control', 'no-store')
  return c.json(
    {
      code: 'WALLET_PROXY_UNAVAILABLE',
      message: 'The embedded-wallet pages are not built: run `npm run build:enclave`',
    },
    503,
  )
}

/**
 * Serves the embedded-wallet enclave (ARCHITECTURE "Embedded wallet keys"):
 *
 * - `GET /apps/:appId/embedded-wallets` — the page the host app frames. Its
 *   CSP `frame-ancestors` is exactly the app's allowed origins (security bar
 *   43), and it inlines `{ appId, origins }` as JSON so the page knows which
 *   parent origins it may talk to (security bar 46).
 * - `GET /apps/enclave.js` — the built page script (read once, kept in memory;
 *   503 JSON while it is not built).
 *
 * Register it next to the other routes, after the global middleware, e.g. in
 * `createLatchkeyServer`: `registerEnclavePage(app, services)`.
 *
 * @example
 * const app = new Hono<HonoEnv>()
 * registerEnclavePage(app, services)
 * await app.request(`/apps/${appId}/embedded-wallets`) // text/html, CSP frame-ancestors = app origins
 */
export function registerEnclavePage(
  hono: Hono<HonoEnv>,
  services: Services,
  options: EnclavePageOptions = {},
): void {
  const bundlePath = options.bundlePath ?? DEFAULT_ENCLAVE_BUNDLE_PATH
  const loadBundle = createBundleLoader(bundlePath)
  serveBundle(hono, ENCLAVE_SCRIPT_PATH, loadBundle, () =>
    services.logger.warn(`the enclave bundle is missing at ${bundlePath}`),
  )

  servePage(
    hono,
    services,
    routes.enclavePage(':appId'),
    loadBundle,
    enclavePageHtml,
    () => services.logger.warn(`the enclave bundle is missing at ${bundlePath}`),
    { connectOrigins: cloudRecoveryOrigins(services) },
  )
}

/**
 * The origins the wallet page calls for cloud recovery: the Google APIs base
 * (Drive) and the CloudKit Web Services base. The provider access token is
 * used only inside the enclave, so only the enclave may reach them.
 */
export function cloudRecoveryOrigins(services: Pick<Services, 'config'>): string[] {
  const { google, icloud } = services.config.cloudRecovery
  return [new URL(google.apiBaseUrl).origin, new URL(icloud.apiBaseUrl).origin]
}

/** Reads a built bundle once and caches it; a missing bundle is retried on the next call. */
export function createBundleLoader(bundlePath: string): () => Bundle | null {
  let bundle: Bundle | null = null
  return () => {
    if (bundle) return bundle
    let body: string
    try {
      body = readFileSync(bundlePath, 'utf8')
    } catch {
      return null
    }
    bundle = {
      body,
      etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`,
      integrity: `sha384-${createHash('sha384').update(body).digest('base64')}`,
    }
    return bundle
  }
}

/** Serves a bundle at `path` (ETag, same-origin only); 503 JSON while it is not built. */
export function serveBundle(
  hono: Hono<HonoEnv>,
  path: string,
  load: () => Bundle | null,
  onMissing: () => void,
): void {
  hono.get(path, (c) => {
    const script = load()
    if (!script) {
      onMissing()
      return unavailable(c)
    }
    c.header('Cache-Control', 'no-cache')
    c.header('ETag', script.etag)
    c.header('Cross-Origin-Resource-Policy', 'same-origin')
    if (c.req.header('if-none-match') === script.etag) return c.body(null, 304)
    c.header('Content-Type', 'text/javascript; charset=utf-8')
    return c.body(script.body, 200)
  })
}

export interface ServePageOptions {
  /** Origins the page may connect to besides its own (CSP connect-src); default none. */
  connectOrigins?: readonly string[]
}

/**
 * Serves an enclave page for `/…/:appId/…`: 404 for an unknown app, 503 while
 * its bundle is not built, else the HTML with the enclave CSP (frame-ancestors
 * = the app's exact origins, security bar 43) and no caching.
 */
export function servePage(
  hono: Hono<HonoEnv>,
  services: Services,
  path: string,
  load: () => Bundle | null,
  html: (config: { appId: string; origins: string[] }, integrity?: string) => string,
  onMissing: () => void,
  options: ServePageOptions = {},
): void {
  hono.get(path, async (c) => {
    const appId = c.req.param('appId')
    const app = appId && isValidAppId(appId) ? await services.apps.get(appId) : null
    if (!app) {
      c.header('Cache-Control', 'no-store')
      return c.json({ code: 'APP_NOT_FOUND', message: errorMessages.APP_NOT_FOUND.title }, 404)
    }
    const script = load()
    if (!script) {
      onMissing()
      return unavailable(c)
    }
    const origins = safeFrameOrigins(app.allowedOrigins)
    c.header('Content-Security-Policy', enclaveCsp(origins, options.connectOrigins))
    c.header('X-Content-Type-Options', 'nosniff')
    c.header('Referrer-Policy', 'no-referrer')
    c.header('Cache-Control', 'no-store')
    return c.html(html({ appId: app.id, origins }, script.integrity))
  })
}
