/**
 * Connector hints (spec 01 §2): query parameters naming the wallet a flow
 * was connecting when the page left for that wallet's app (a phone's
 * "Continue" into the wallet's in-app browser). The page they come back on
 * reads them at start and removes them.
 */
export const CONNECTOR_HINT_PARAMS = {
  /** The connector type: injected, wallet_connect_v2, coinbase_wallet… */
  connector: 'latchkey_connector',
  /** The wallet's slug (`walletClientType`): metamask, phantom… */
  walletClient: 'latchkey_wallet_client',
  /** 'true' when the flow was connect-only (no login). */
  connectOnly: 'latchkey_connect_only',
} as const

/** Whether a page address's query (`location.search`) carries connector hints. */
export function hasConnectorHints(search: string | undefined): boolean {
  if (!search) return false
  const params = new URLSearchParams(search)
  return Object.values(CONNECTOR_HINT_PARAMS).some((name) => params.has(name))
}
