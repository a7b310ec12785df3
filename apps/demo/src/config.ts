/**
 * Where the demo finds its Latchkey server and app. Build-time env vars
 * (VITE_LATCHKEY_API_URL, VITE_LATCHKEY_APP_ID) set the defaults; `?apiUrl=`
 * and `?appId=` in the page URL override them, so one build can point at any
 * server (handy for end-to-end tests). Passkey sign-up follows the app's
 * setting (`passkeys_for_signup_enabled`, on for `npm start`'s demo app);
 * `?passkeySignup=1` or `=0` overrides it through `loginConfig`. `?walletsFirst=1`
 * lays the landing screen out web3-first: the wallet list's wallets as rows.
 */
export interface DemoConfig {
  apiUrl: string
  appId: string
  /** `loginConfig.passkeysForSignupEnabled`; undefined: the app's setting. */
  passkeySignup: boolean | undefined
  /** `appearance.loginGroupPriority: 'web3-first'`. */
  walletsFirst: boolean
}

export const DEFAULT_API_URL = 'http://localhost:8787'

export function readDemoConfig(search = globalThis.location?.search ?? ''): DemoConfig {
  const params = new URLSearchParams(search)
  return {
    apiUrl: params.get('apiUrl') || import.meta.env.VITE_LATCHKEY_API_URL || DEFAULT_API_URL,
    appId: params.get('appId') || import.meta.env.VITE_LATCHKEY_APP_ID || '',
    passkeySignup: { '1': true, '0': false }[params.get('passkeySignup') ?? ''],
    walletsFirst: params.get('walletsFirst') === '1',
  }
}
