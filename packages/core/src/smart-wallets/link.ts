import { routes } from '@latchkey/protocol/routes'
import type {
  SiweInitResponse,
  SmartWalletLinkRequest,
  SmartWalletType,
  UserWire,
} from '@latchkey/protocol/schemas'
import type { Hex } from 'viem'
import type { SmartAccount } from 'viem/account-abstraction'
import { createSiweMessage } from 'viem/siwe'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { toUser, type User } from '../user.ts'

export interface LinkSmartWalletParameters {
  /** The smart account; its address is the SIWE message's. */
  account: SmartAccount
  type: SmartWalletType
  /** The type's version (SMART_WALLET_VERSIONS): what `toSmartWalletAccount` returns. */
  version: string
  /** The chain the message names: the server verifies the account's signature there. */
  chainId: number
  /**
   * The account's owner (the embedded wallet). Required for `simple`:
   * SimpleAccount has no ERC-1271, so its owner signs the message instead,
   * and viem's account does not expose its owner.
   */
  owner?: { signMessage(parameters: { message: string }): Promise<Hex> }
  /** The page the message names (default `window.location`). */
  location?: { host: string; origin: string }
}

export type LinkSmartWalletReturnType = User

/**
 * Links a smart wallet to the logged-in user as its `smart_wallet` account
 * (spec 01 §7 "Smart-wallet link"; docs/smart-wallets.md): asks the server
 * for a SIWE nonce for the smart account's address, has the account sign the
 * EIP-4361 message (ERC-6492-wrapped while it is not deployed, ERC-1271
 * after; for `simple`, the owner signs), and posts it. The server checks
 * that one of the user's embedded wallets owns the account. Resolves to the
 * updated user, which the session also holds.
 *
 * @example
 * const { account, type, version } = await toSmartWalletAccount({ client: publicClient, owner, type: 'safe' })
 * const user = await linkSmartWallet(client, { account, type, version, chainId: base.id })
 */
export async function linkSmartWallet(
  client: LatchkeyClient,
  parameters: LinkSmartWalletParameters,
): Promise<LinkSmartWalletReturnType> {
  const { account, type, version, chainId, owner } = parameters
  if (type === 'simple' && !owner)
    throw new LatchkeyError('UNSUPPORTED_METHOD', 'A simple smart wallet links with its owner')
  const captcha = await client.captchaToken()
  const { nonce } = await client.http.request<SiweInitResponse>(routes.siweInit, {
    // docs/captcha.md: the nonce route is a login start.
    body: { address: account.address, ...(captcha ? { token: captcha } : {}) },
    auth: false,
  })
  const { host, origin } = parameters.location ?? window.location
  const message = createSiweMessage({
    domain: host,
    address: account.address,
    uri: origin,
    version: '1',
    chainId,
    nonce,
    issuedAt: new Date(),
  })
  const signature =
    type === 'simple' && owner
      ? await owner.signMessage({ message })
      : await account.signMessage({ message })
  const body: SmartWalletLinkRequest = {
    message,
    signature,
    smart_wallet_type: type,
    smart_wallet_version: version,
  }
  const user = toUser(await client.authedRequest<UserWire>(routes.smartWalletLink, body))
  client.session.setUser(user)
  return user
}
