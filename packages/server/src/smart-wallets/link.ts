import {
  SMART_WALLET_VERSIONS,
  type SmartWalletLinkRequest,
  type SmartWalletType,
  type UserWire,
} from '@latchkey/protocol'
import type { Address, Hex } from 'viem'
import type { AppRecord } from '../apps/service.ts'
import { appOrigin, walletLoginFailed } from '../auth/siwe/external-wallet.ts'
import { consumeNonce, findUsableNonce } from '../auth/siwe/nonces.ts'
import {
  type CheckedSiweMessage,
  checkSiweMessage,
  verifySiweSignature,
} from '../auth/siwe/verify.ts'
import { isUniqueViolation } from '../db/connect.ts'
import { ApiError } from '../errors.ts'
import type { Services } from '../http/context.ts'
import { newId } from '../ids.ts'
import { SMART_WALLET_ACCOUNT_TYPE } from '../users/accounts-wire.ts'
import {
  findAccount,
  getUserWire,
  linkedAccountsOf,
  lockUser,
  toLinkedAccountWire,
  WALLET_ACCOUNT_TYPE,
} from '../users/service.ts'
import { enqueueWebhookEvent } from '../webhooks/outbox.ts'
import { assertSimpleAccountOf, ecdsaSigner, linkChainClient, safeOwners } from './link-owners.ts'
import { toSmartWalletConfig } from './settings.ts'

/*
 * The `smart_wallet` linked account (spec 01 §3, §7 "Smart-wallet link";
 * docs/smart-wallets.md "The smart_wallet link"): a signed-in user proves a
 * smart account is theirs with a SIWE message whose address is the account,
 * on a nonce from `routes.siweInit`. Beyond the SIWE checks (domain, nonce
 * single-use, time window, chain), the account must be controlled by one of
 * the user's own embedded Ethereum wallets: a message signed for another
 * purpose, or by another user's wallet, links nothing.
 */

/** Spec 01 §8 "Cannot link more of a type: the server message". */
export const CANNOT_LINK_MORE_SMART_WALLETS = 'Only one smart wallet can be linked to an account.'

/** The user's embedded Ethereum wallet addresses, lowercase. */
async function embeddedEthereumWallets(services: Services, userId: string): Promise<Set<string>> {
  const rows = await linkedAccountsOf(services.db, userId)
  return new Set(
    rows
      .filter((r) => r.type === WALLET_ACCOUNT_TYPE)
      .map((r) => JSON.parse(r.data) as { address?: unknown; chain_type?: unknown })
      .filter((d) => d.chain_type === 'ethereum' && typeof d.address === 'string')
      .map((d) => (d.address as string).toLowerCase()),
  )
}

const ownedBy = (wallets: Set<string>, address: Address) => wallets.has(address.toLowerCase())

/**
 * Throws WALLET_LOGIN_FAILED unless `signature` proves the user controls the
 * account, per type:
 * - `simple_7702`: the account is one of the user's embedded wallets (the EOA
 *   itself, delegated or about to be) and signed the message (plain ECDSA).
 * - `simple`: SimpleAccount v0.7 has no ERC-1271, so the owner signs (ECDSA);
 *   the owner is one of the user's embedded wallets and the account is the
 *   one SimpleAccountFactory v0.7 makes for it (link-owners.ts).
 * - `safe`: the Safe signs (ERC-1271 deployed, ERC-6492 counterfactual,
 *   through the chain's endpoint); one of its owners is one of the user's
 *   embedded wallets (link-owners.ts `safeOwners`).
 */
async function assertControls(
  services: Services,
  userId: string,
  type: SmartWalletType,
  checked: CheckedSiweMessage,
  message: string,
  signature: Hex,
): Promise<void> {
  const wallets = await embeddedEthereumWallets(services, userId)
  const rpcUrl = services.config.chainRpcUrls[checked.chainId]
  switch (type) {
    case 'simple_7702': {
      if (!ownedBy(wallets, checked.address)) throw walletLoginFailed('not_embedded_wallet')
      const signer = await ecdsaSigner(message, signature)
      if (signer !== checked.address) throw walletLoginFailed('invalid_signature')
      return
    }
    case 'simple': {
      const owner = await ecdsaSigner(message, signature)
      if (!ownedBy(wallets, owner)) throw walletLoginFailed('owner_not_embedded_wallet')
      const client = await linkChainClient(rpcUrl, checked.chainId)
      await assertSimpleAccountOf(client, checked.address, owner)
      return
    }
    case 'safe': {
      const { address, chainId } = checked
      await verifySiweSignature({ message, address, signature, chainId, rpcUrl })
      const client = await linkChainClient(rpcUrl, chainId)
      const owners = await safeOwners(client, address, signature)
      if (!owners.some((owner) => ownedBy(wallets, owner)))
        throw walletLoginFailed('owner_not_embedded_wallet')
      return
    }
  }
}

/**
 * Stores the proven smart wallet as the user's `smart_wallet` account, under
 * the user's row lock (two links at once: one wins). The same address again
 * refreshes it; another user's is ACCOUNT_ALREADY_LINKED; a second one is
 * CANNOT_LINK_MORE_OF_TYPE (one account per type, spec 01 §5). Not through
 * users/service.ts `insertAccount`: a smart wallet is no login method, so it
 * must not upgrade a guest.
 */
async function store(
  services: Services,
  app: AppRecord,
  userId: string,
  identifier: string,
  data: Record<string, unknown>,
): Promise<UserWire> {
  const now = services.now()
  try {
    return await services.db.transaction().execute(async (tx) => {
      await lockUser(tx, userId)
      const existing = await findAccount(tx, app.id, SMART_WALLET_ACCOUNT_TYPE, identifier)
      if (existing && existing.user_id !== userId) throw new ApiError('ACCOUNT_ALREADY_LINKED')
      if (existing) {
        await tx
          .updateTable('linked_accounts')
          .set({ data: JSON.stringify(data), latest_verified_at: now })
          .where('id', '=', existing.id)
          .execute()
        return getUserWire(tx, userId)
      }
      const accounts = await linkedAccountsOf(tx, userId)
      if (accounts.some((a) => a.type === SMART_WALLET_ACCOUNT_TYPE))
        throw new ApiError('CANNOT_LINK_MORE_OF_TYPE', CANNOT_LINK_MORE_SMART_WALLETS)
      const row = {
        id: newId(),
        user_id: userId,
        app_id: app.id,
        type: SMART_WALLET_ACCOUNT_TYPE,
        identifier,
        data: JSON.stringify(data),
        created_at: now,
        first_verified_at: now,
        latest_verified_at: now,
      }
      await tx.insertInto('linked_accounts').values(row).execute()
      const user = await getUserWire(tx, userId)
      const account = toLinkedAccountWire(row)
      if (account)
        await enqueueWebhookEvent(tx, app.id, 'user.linked_account', { user, account }, now)
      return user
    })
  } catch (error) {
    // The same address linked by another user at this very moment.
    if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
    throw error
  }
}

/**
 * Links a smart wallet to the signed-in user (spec 01 §7 "Smart-wallet
 * link"). The app must have smart wallets on (NOT_FOUND otherwise) and the
 * message's chain must be one of its smart-wallet chains (UNSUPPORTED_CHAIN).
 * The SIWE message's address is the smart account and its nonce one
 * `routes.siweInit` issued for that address; the version must be the type's
 * (SMART_WALLET_VERSIONS). Answers the user, like the other link routes.
 *
 * @example
 * const user = await linkSmartWallet(services, app, auth.userId, origin, {
 *   message, signature, smart_wallet_type: 'safe', smart_wallet_version: '1.4.1',
 * })
 */
export async function linkSmartWallet(
  services: Services,
  app: AppRecord,
  userId: string,
  origin: string | undefined,
  input: SmartWalletLinkRequest,
): Promise<UserWire> {
  const config = toSmartWalletConfig(app.settings.smart_wallets)
  if (!config) throw new ApiError('NOT_FOUND', 'This app has no smart wallets.')
  const type = input.smart_wallet_type
  const version = SMART_WALLET_VERSIONS[type]
  if (input.smart_wallet_version !== version)
    throw new ApiError('INVALID_PAYLOAD', `A ${type} smart wallet is version ${version}.`, {
      smart_wallet_version: version,
    })
  const checked = checkSiweMessage(input.message, {
    origin: appOrigin(app, origin),
    chainIds: config.chains.map((chain) => chain.chain_id),
    now: services.now(),
  })
  const identifier = checked.address.toLowerCase()
  // EIP-4361 §5.2: the nonce before anything costly, and spent only once the proof holds.
  await findUsableNonce(services.db, app.id, 'ethereum', checked.nonce, identifier, services.now())
  const signature = input.signature as Hex
  await assertControls(services, userId, type, checked, input.message, signature)
  await consumeNonce(services.db, checked.nonce, services.now())
  return store(services, app, userId, identifier, {
    address: checked.address,
    smart_wallet_type: type,
    smart_wallet_version: version,
    chain_id: `eip155:${checked.chainId}`,
  })
}
