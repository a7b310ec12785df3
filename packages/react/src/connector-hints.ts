import { CONNECTOR_TYPES, type ConnectorType } from '@latchkey/protocol/constants'
import { CONNECTOR_HINT_PARAMS } from './connector-hint-params.ts'
import type { LatchkeyInstance } from './instance.ts'

export { CONNECTOR_HINT_PARAMS }

export interface ConnectorHints {
  connector: ConnectorType | null
  walletClient: string | null
  connectOnly: boolean
}

/**
 * Reads the connector hints from the page's address and removes them from
 * it (the history entry is replaced). Null when there are none.
 *
 * @example
 * // https://app.example/?latchkey_wallet_client=metamask&latchkey_connector=injected
 * takeConnectorHints() // { connector: 'injected', walletClient: 'metamask', connectOnly: false }
 */
export function takeConnectorHints(
  options: { url?: string; replaceUrl?: (url: string) => void } = {},
): ConnectorHints | null {
  const href = options.url ?? globalThis.location?.href
  if (!href) return null
  const url = new URL(href)
  const params = url.searchParams
  const names = Object.values(CONNECTOR_HINT_PARAMS)
  if (!names.some((name) => params.has(name))) return null
  const connector = params.get(CONNECTOR_HINT_PARAMS.connector)
  const hints: ConnectorHints = {
    connector: CONNECTOR_TYPES.find((type) => type === connector) ?? null,
    walletClient: params.get(CONNECTOR_HINT_PARAMS.walletClient) || null,
    connectOnly: params.get(CONNECTOR_HINT_PARAMS.connectOnly) === 'true',
  }
  for (const name of names) params.delete(name)
  const replace =
    options.replaceUrl ??
    ((to: string) => globalThis.history?.replaceState(globalThis.history.state, '', to))
  replace(url.toString())
  return hints
}

/** `pageUrl` with connector hints added: where a wallet's app should open the page. */
export function withConnectorHints(pageUrl: string, hints: ConnectorHints): string {
  const url = new URL(pageUrl)
  if (hints.connector) url.searchParams.set(CONNECTOR_HINT_PARAMS.connector, hints.connector)
  if (hints.walletClient)
    url.searchParams.set(CONNECTOR_HINT_PARAMS.walletClient, hints.walletClient)
  if (hints.connectOnly) url.searchParams.set(CONNECTOR_HINT_PARAMS.connectOnly, 'true')
  return url.toString()
}

/** The wallet the hints name: the wallet client, else the wallet a connector type stands for. */
export function hintedWallet(hints: ConnectorHints): string | null {
  if (hints.walletClient) return hints.walletClient
  if (hints.connector === 'wallet_connect_v2') return 'wallet_connect'
  if (hints.connector === 'coinbase_wallet' || hints.connector === 'base_account')
    return 'coinbase_wallet'
  return null
}

/**
 * Picks up where the hinted flow left off, once the session is known: the
 * connect-only wallet flow when the hints say so, else the login modal,
 * either way straight on the hinted wallet's connection (the list when
 * they name no wallet). A login is not offered to a user already logged in.
 */
export async function resumeFromConnectorHints(
  instance: LatchkeyInstance,
  hints: ConnectorHints,
): Promise<void> {
  const wallet = hintedWallet(hints) ?? undefined
  await instance.client.session.initialize()
  if (hints.connectOnly) {
    // Nobody awaits this connection: the wallet shows in useWallets().
    instance.openConnectWallet({ wallet }).catch(() => undefined)
    return
  }
  const { status, user } = instance.client.session.getState()
  if (status === 'authenticated' && user && !user.isGuest) return
  instance.openLogin({ method: 'wallet', wallet })
}

/** At the provider's start: takes the page's connector hints and resumes their flow. */
export function startFromConnectorHints(instance: LatchkeyInstance): void {
  const hints = takeConnectorHints()
  if (hints) void resumeFromConnectorHints(instance, hints)
}
