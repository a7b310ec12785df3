/**
 * Where the demo finds its Latchkey server and app. Build-time env vars
 * (VITE_LATCHKEY_API_URL, VITE_LATCHKEY_APP_ID) set the defaults; `?apiUrl=`
 * and `?appId=` in the page URL override them, so one build can point at any
 * server (handy for end-to-end tests). `?passkeySignup=1` turns on
 * `loginConfig.passkeysForSignupEnabled` (new accounts with a passkey).
 */
export interface DemoConfig {
  apiUrl: string
  appId: string
  /** `loginConfig.passkeysForSignupEnabled`. */
  passkeySignup: boolean
}

export const DEFAULT_API_URL = 'http://localhost:8787'

export function readDemoConfig(search = globalThis.location?.search ?? ''): DemoConfig {
  const params = new URLSearchParams(search)
  return {
    apiUrl: params.get('apiUrl') || import.meta.env.VITE_LATCHKEY_API_URL || DEFAULT_API_URL,
    appId: params.get('appId') || import.meta.env.VITE_LATCHKEY_APP_ID || '',
    passkeySignup: params.get('passkeySignup') === '1',
  }
}
