/** The id of the JSON block the server inlines into the page (server/src/enclave/page.ts). */
export const CONFIG_ELEMENT_ID = 'latchkey-enclave-config'

/** What the page knows about its app: the id, and the exact origins that may talk to it. */
export interface EnclaveConfig {
  appId: string
  /** Exact origins (`https://app.example.com`): compared with `===`, never by prefix. */
  origins: string[]
}

/**
 * Reads the config the server inlined as `<script type="application/json">`.
 * Throws when it is missing or malformed: the page then never announces itself.
 */
export function readConfig(doc: Pick<Document, 'getElementById'>): EnclaveConfig {
  const element = doc.getElementById(CONFIG_ELEMENT_ID)
  if (!element?.textContent) throw new Error('The enclave config is missing')
  const raw = JSON.parse(element.textContent) as { appId?: unknown; origins?: unknown }
  if (typeof raw.appId !== 'string' || !/^[a-z0-9]{25}$/.test(raw.appId))
    throw new Error('The enclave config has no valid app id')
  if (!Array.isArray(raw.origins)) throw new Error('The enclave config has no origins')
  const origins = raw.origins.filter((o): o is string => typeof o === 'string' && isExactOrigin(o))
  return { appId: raw.appId, origins }
}

/** True when `value` is exactly an http(s) origin (no path, no trailing slash, no wildcard). */
export function isExactOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
  } catch {
    return false
  }
}
