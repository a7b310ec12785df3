import { CROSS_APP_QUERY, type CrossAppRpcRequest } from '@latchkey/protocol/client-schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { base64url, randomCode } from '../redirect.ts'
import type { CrossAppAccount } from '../user.ts'
import { getCrossAppDetails, readCrossAppGrant } from './login.ts'
import {
  type CrossAppPopup,
  type MessageTarget,
  openCrossAppPopup,
  waitForCrossAppMessage,
} from './popup.ts'

export interface CrossAppRpcOptions {
  /** The wallet to sign with: one of the cross_app account's embedded wallets. */
  address: string
  /** The provider app; default: the provider of the account holding `address`. */
  appId?: string
  popup?: CrossAppPopup | null
  target?: MessageTarget
  signal?: AbortSignal
}

/** The signed-in user's cross_app account holding `address`, or CROSS_APP_ADDRESS_NOT_CONNECTED. */
export function crossAppAccountOf(
  client: LatchkeyClient,
  address: string,
  providerAppId?: string,
): CrossAppAccount {
  const user = client.session.getState().user
  if (!user) throw new LatchkeyError('NOT_AUTHENTICATED')
  const accounts = user.linkedAccounts.filter(
    (a): a is CrossAppAccount =>
      a.type === 'cross_app' && (providerAppId === undefined || a.providerApp.id === providerAppId),
  )
  if (providerAppId !== undefined && accounts.length === 0)
    throw new LatchkeyError('CROSS_APP_INVALID_APP')
  const lower = address.toLowerCase()
  const account = accounts.find((a) =>
    a.embeddedWallets.some((w) => w.address.toLowerCase() === lower),
  )
  if (!account) throw new LatchkeyError('CROSS_APP_ADDRESS_NOT_CONNECTED')
  return account
}

/**
 * Asks the provider app to run one wallet request with the user's embedded
 * wallet there (spec 03 §7 "Cross-app": a 440x680 popup of the provider's
 * page with `token` and `request`). The provider's page checks the token,
 * shows its own confirmation, and answers with the signature or hash.
 * Refused before any popup: an address that is not the connection's
 * ('Cannot request a signature with this wallet address'), no token
 * ('Transactions require a valid token'), a read-only provider ('Cannot
 * transact against a read-only provider app'). The provider's page not
 * known (its details unreadable): 'Failed to initialize signature request'.
 *
 * @example
 * const signature = await crossAppRpc(client, { method: 'personal_sign', params: [hex, address] }, { address })
 */
export async function crossAppRpc(
  client: LatchkeyClient,
  request: CrossAppRpcRequest,
  options: CrossAppRpcOptions,
): Promise<string> {
  const account = crossAppAccountOf(client, options.address, options.appId)
  const providerAppId = account.providerApp.id
  const grant = readCrossAppGrant(client, providerAppId)
  const user = client.session.getState().user
  if (!grant || grant.user_id !== user?.id || grant.expires_at <= Date.now())
    throw new LatchkeyError('CROSS_APP_INVALID_TOKEN')
  if (grant.read_only) throw new LatchkeyError('CROSS_APP_READ_ONLY')
  const popup = options.popup === undefined ? openCrossAppPopup() : options.popup
  if (!popup) throw new LatchkeyError('CROSS_APP_CANCELED', 'The pop-up was blocked')
  try {
    const provider = await getCrossAppDetails(client, providerAppId).catch((cause: unknown) => {
      // A provider that is gone or no longer shares stays 'Invalid connected app'.
      if (cause instanceof LatchkeyError && cause.code === 'CROSS_APP_INVALID_APP') throw cause
      throw new LatchkeyError('CROSS_APP_SIGNATURE_INIT_FAILED', undefined, { cause })
    })
    const state = randomCode(32)
    const url = new URL(provider.custom_api_url)
    url.searchParams.set(CROSS_APP_QUERY, 'transact')
    url.searchParams.set('requester_app_id', client.appId)
    url.searchParams.set('token', grant.token)
    url.searchParams.set('request', base64url(new TextEncoder().encode(JSON.stringify(request))))
    url.searchParams.set('state', state)
    url.searchParams.set('origin', globalThis.location.origin)
    popup.location.href = url.toString()
    const answer = await waitForCrossAppMessage({
      popup,
      providerOrigin: url.origin,
      state,
      target: options.target,
      signal: options.signal,
    })
    if (answer.result !== 'signed') throw new LatchkeyError('CROSS_APP_STATE_MISMATCH')
    return answer.data
  } catch (error) {
    if (!popup.closed) popup.close()
    throw error
  }
}
