import type { LoginMethod } from '@latchkey/core'
import { OAUTH_PROVIDERS } from '@latchkey/protocol/constants'
import type { AppConfig } from '@latchkey/protocol/schemas'
import { isWalletEntry, type LandingEntry } from './modal/landing-entries.ts'

// What the provider checks of its configuration when it mounts. Apart from
// config.ts (which re-exports it), so resolveConfig and the rest, which only
// the modal and wallet hooks use, stay out of the first chunk
// (docs/first-load.md).

/** Login methods this version of the modal can draw. Later login methods add themselves here. */
export const IMPLEMENTED_LOGIN_METHODS: readonly LoginMethod[] = [
  'email',
  'sms',
  ...OAUTH_PROVIDERS,
  'telegram',
  'wallet',
  'farcaster',
  'passkey',
]

function serverLoginMethods(app: AppConfig | null): LoginMethod[] {
  if (!app) return [...IMPLEMENTED_LOGIN_METHODS]
  return (Object.keys(app.login_methods) as Array<keyof AppConfig['login_methods']>).filter(
    (name): name is Exclude<LoginMethod, 'cross_app'> =>
      name !== 'guest' && app.login_methods[name],
  )
}

/** The fields of the host's `LatchkeyConfig` that choose the login methods. */
export interface LoginMethodsChoice {
  loginMethods?: readonly string[]
  loginMethodsAndOrder?: { primary: LandingEntry[]; overflow?: LandingEntry[] }
}

/**
 * The login methods the modal offers: the host's list, else the server's,
 * limited to implemented ones. Wallets listed in `loginMethodsAndOrder` mean
 * wallet login.
 */
export function effectiveLoginMethods(
  host: LoginMethodsChoice,
  app: AppConfig | null,
): LoginMethod[] {
  const order = host.loginMethodsAndOrder
  const wanted = order
    ? [...order.primary, ...(order.overflow ?? [])].map((entry) =>
        isWalletEntry(entry) ? 'wallet' : entry,
      )
    : (host.loginMethods ?? serverLoginMethods(app))
  return [...new Set(wanted)].filter((method): method is LoginMethod =>
    IMPLEMENTED_LOGIN_METHODS.includes(method as LoginMethod),
  )
}

/**
 * A key that changes only when the configuration's content does, so an inline
 * `config={{…}}` does not count as a new configuration on every render.
 */
export function configKey(config: object | undefined): string {
  return JSON.stringify(config ?? {}, (_key, value) =>
    value && typeof value === 'object' && '$$typeof' in value ? '[element]' : value,
  )
}
