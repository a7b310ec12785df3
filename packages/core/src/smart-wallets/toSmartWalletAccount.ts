import { toSafeSmartAccount, toSimpleSmartAccount } from 'permissionless/accounts'
import type { Chain, Client, JsonRpcAccount, LocalAccount, Transport } from 'viem'
import {
  entryPoint07Address,
  type SmartAccount,
  toSimple7702SmartAccount,
} from 'viem/account-abstraction'
import type { PrivateKeyAccount } from 'viem/accounts'

/**
 * Which audited account contract backs a smart wallet, as it is recorded on
 * the user's linked `smart_wallet` account. `simple_7702` is the embedded EOA
 * itself, upgraded by an EIP-7702 authorization to eth-infinitism's
 * Simple7702Account (EntryPoint v0.8): same address, no factory.
 */
export type SmartWalletType = 'simple' | 'safe' | 'simple_7702'

/** A smart account plus what the user's `smart_wallet` link records about it. */
export interface SmartWalletAccount {
  account: SmartAccount
  type: SmartWalletType
  /** The account implementation's version (eth-infinitism's accounts: their EntryPoint's). */
  version: string
}

export interface ToSmartWalletAccountParameters {
  /** A public client on the wallet's chain (reads nonce, code, factory address). */
  client: Client<Transport, Chain | undefined, JsonRpcAccount | LocalAccount | undefined>
  /** The embedded wallet's signer: owns the smart account and signs its user operations. */
  owner: LocalAccount
  type?: SmartWalletType
  /** Lets one owner hold several accounts of a type; 0 unless the app says otherwise (not for `simple_7702`). */
  index?: bigint
}

/**
 * The smart account an owner controls, at its counterfactual address: the
 * address is known (and can receive funds) before anything is deployed; the
 * first user operation deploys it through its factory.
 *
 * @example
 * const { account } = await toSmartWalletAccount({ client: publicClient, owner })
 * account.address // same before and after deployment
 */
export async function toSmartWalletAccount({
  client,
  owner,
  type = 'simple',
  index = 0n,
}: ToSmartWalletAccountParameters): Promise<SmartWalletAccount> {
  switch (type) {
    case 'simple': {
      // eth-infinitism SimpleAccount v0.7 via its canonical factory
      // (0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985, permissionless's default).
      const account = await toSimpleSmartAccount({
        client,
        owner,
        index,
        entryPoint: { address: entryPoint07Address, version: '0.7' },
      })
      return { account, type, version: '0.7' }
    }
    case 'safe': {
      // Safe v1.4.1 with Safe4337Module v0.3.0 as module and fallback handler
      // (its CompatibilityFallbackHandler answers ERC-1271), one owner, threshold 1.
      const account = await toSafeSmartAccount({
        client,
        owners: [owner],
        version: '1.4.1',
        saltNonce: index,
        entryPoint: { address: entryPoint07Address, version: '0.7' },
      })
      return { account, type, version: '1.4.1' }
    }
    case 'simple_7702': {
      // Delegates to Simple7702Account at 0xe6Cae83BdE06E4c305530e199D7217f42808555B;
      // it validates the EOA's own signature (user operations and ERC-1271).
      // viem's implementation, not permissionless's: the latter refuses signMessage.
      // viem types the owner as a private-key account; it only calls the
      // LocalAccount methods (sign*, and signAuthorization when not given one).
      const account = await toSimple7702SmartAccount({
        client,
        owner: owner as PrivateKeyAccount,
      })
      return { account, type, version: '0.8' }
    }
  }
}
