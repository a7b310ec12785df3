import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import type { SmartWalletAccount } from '../user.ts'
import {
  type EmbeddedSmartWallet,
  type EmbeddedSmartWalletParameters,
  toEmbeddedSmartWallet,
} from './embeddedAccount.ts'
import { linkSmartWallet } from './link.ts'

export type {
  EmbeddedSmartWallet,
  EmbeddedSmartWalletParameters,
  PreparedSmartWalletCalls,
  SentSmartWalletCalls,
} from './embeddedAccount.ts'
export type { SmartWalletCall } from './sendSmartWalletCalls.ts'

/**
 * The user's smart wallet on `chain` (docs/smart-wallets.md): an ERC-4337
 * account of the app's type (`smart_wallet_config`) owned by the embedded
 * wallet, or, for `simple_7702`, the embedded wallet itself upgraded by
 * EIP-7702. Every signature is made in the enclave; user operations go to the
 * bundler (and, when the chain is sponsored, the paymaster) through the app's
 * Latchkey server. The first time, the smart wallet is linked to the user (a
 * `smart_wallet` account, signed in with its SIWE message), so the server
 * knows the sender it relays for. A user whose linked smart wallet is another
 * account (the app changed its type) gets CANNOT_LINK_MORE_OF_TYPE.
 *
 * @example
 * const smartWallet = await createEmbeddedSmartWallet(client, { wallet, chain: base })
 * const { maxCost, sponsored } = await smartWallet.prepareCalls(calls) // the confirm screen
 * const { transactionHash } = await smartWallet.sendCalls(calls)       // one user operation
 */
export async function createEmbeddedSmartWallet(
  client: LatchkeyClient,
  parameters: EmbeddedSmartWalletParameters,
): Promise<EmbeddedSmartWallet> {
  const smartWallet = await toEmbeddedSmartWallet(client, parameters)
  const linked = client.session
    .getState()
    .user?.linkedAccounts.find((a): a is SmartWalletAccount => a.type === 'smart_wallet')
  if (!linked) {
    await linkSmartWallet(client, {
      account: smartWallet.account,
      type: smartWallet.type,
      version: smartWallet.version,
      chainId: parameters.chain.id,
      // SimpleAccount has no ERC-1271: its owner signs the link message.
      owner: smartWallet.owner,
    })
  } else if (linked.address.toLowerCase() !== smartWallet.address.toLowerCase()) {
    // The server relays only for the linked sender: this account could send nothing.
    throw new LatchkeyError(
      'CANNOT_LINK_MORE_OF_TYPE',
      `The user's smart wallet is ${linked.address}, not ${smartWallet.address}`,
      { details: { linked: linked.address, address: smartWallet.address } },
    )
  }
  return smartWallet
}
