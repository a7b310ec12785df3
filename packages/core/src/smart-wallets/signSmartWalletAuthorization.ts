import type { Address, Chain, Client, LocalAccount, SignedAuthorization, Transport } from 'viem'
import type { SmartAccount } from 'viem/account-abstraction'
import { getChainId, getTransactionCount, signAuthorization } from 'viem/actions'

export interface SignSmartWalletAuthorizationParameters {
  /** A public client on the chain the authorization is for. */
  client: Client<Transport, Chain | undefined>
  /** The EOA being upgraded (the embedded wallet's signer). */
  owner: LocalAccount
  /** The account implementation the EOA will run (e.g. Simple7702Account). */
  implementation: Address
}

/**
 * The EIP-7702 authorization that makes `owner`'s address run
 * `implementation`'s code, for this chain only, at the EOA's current nonce.
 * It travels in the first user operation (`eip7702Auth`) and the bundler's
 * transaction applies it: the EOA sends no transaction of its own.
 *
 * @example
 * const authorization = await signSmartWalletAuthorization({ client, owner, implementation })
 * await smartWalletClient.sendUserOperation({ calls, authorization })
 */
export async function signSmartWalletAuthorization({
  client,
  owner,
  implementation,
}: SignSmartWalletAuthorizationParameters): Promise<SignedAuthorization> {
  // EIP-7702: the authorization's nonce is the authority's account nonce at
  // the time it is applied; someone else sends the transaction, so no +1.
  const nonce = await getTransactionCount(client, { address: owner.address, blockTag: 'pending' })
  return signAuthorization(client, {
    account: owner,
    contractAddress: implementation,
    chainId: client.chain?.id ?? (await getChainId(client)),
    nonce,
  })
}

/** Whether the EOA behind a `simple_7702` smart account already delegates to its implementation. */
export function isUpgraded(account: SmartAccount): Promise<boolean> {
  return account.isDeployed()
}
