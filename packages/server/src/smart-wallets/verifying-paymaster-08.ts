// Sponsorship on EntryPoint v0.8 (EIP-7702 accounts: Simple7702Account).
// eth-infinitism's 0.8.0 release ships no VerifyingPaymaster; ours is the
// audited 0.7.0 sample compiled against the 0.8.0 core, changed only where
// the v0.8 sources require it (`userOp.getSender()` → `userOp.sender`; the
// test harness's verifying-paymaster-08.ts lists it). Its `getHash` encodes
// the same fields in the same order as v0.7's, and v0.8 keeps the
// `paymasterAndData` layout (no paymaster-signature suffix: that is v0.9),
// so the off-chain side is v0.7's signing under v0.8 types. What differs
// on-chain, and why it does not reach this hash, is in docs/smart-wallets.md
// ("Sponsoring EIP-7702 accounts").
import type { Address, Hex, LocalAccount } from 'viem'
import type {
  GetPaymasterDataParameters,
  GetPaymasterDataReturnType,
  GetPaymasterStubDataReturnType,
  PaymasterActions,
  UserOperation,
} from 'viem/account-abstraction'
import {
  createVerifyingPaymaster,
  getVerifyingPaymasterHash,
  signVerifyingPaymasterData,
} from './verifying-paymaster.ts'

/** The EntryPoint this paymaster serves (and the one Simple7702Account trusts). */
export const VERIFYING_PAYMASTER_08_ENTRY_POINT: Address =
  '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'

export interface VerifyingPaymaster08HashParameters {
  /**
   * The operation as the bundler will pack it. For an EIP-7702 account's
   * first operation `factory` is the marker `0x7702` and the hash covers the
   * marker, not the delegate (the account's own EIP-712 signature does).
   */
  userOperation: Pick<
    UserOperation<'0.8'>,
    | 'sender'
    | 'nonce'
    | 'factory'
    | 'factoryData'
    | 'callData'
    | 'callGasLimit'
    | 'verificationGasLimit'
    | 'preVerificationGas'
    | 'maxFeePerGas'
    | 'maxPriorityFeePerGas'
    | 'paymasterVerificationGasLimit'
    | 'paymasterPostOpGasLimit'
  >
  chainId: number
  paymaster: Address
  /** Unix seconds; 0 means no expiry. */
  validUntil: number
  validAfter: number
}

/**
 * The v0.8 VerifyingPaymaster's `getHash(userOp, validUntil, validAfter)`,
 * computed off-chain: sender, nonce, hashes of initCode and callData, the
 * gas fields, the paymaster's gas limits, chain id, paymaster address and
 * the window. Not the EntryPoint's (EIP-712) user operation hash: that one
 * covers `paymasterAndData`, which carries this hash's signature.
 */
export function getVerifyingPaymaster08Hash(parameters: VerifyingPaymaster08HashParameters): Hex {
  // Same encoding as v0.7: only the struct's types are versioned in viem.
  return getVerifyingPaymasterHash(parameters)
}

export interface SignVerifyingPaymaster08DataParameters extends VerifyingPaymaster08HashParameters {
  /** The paymaster's `verifyingSigner`. */
  signer: LocalAccount
}

/**
 * The `paymasterData` that makes the v0.8 paymaster sponsor this exact
 * operation within [validAfter, validUntil]: `abi.encode(uint48 validUntil,
 * uint48 validAfter) ++ signature`, an EIP-191 personal signature over
 * {@link getVerifyingPaymaster08Hash}.
 *
 * @example
 * const paymasterData = await signVerifyingPaymaster08Data({ userOperation, chainId, paymaster, validUntil, validAfter: 0, signer })
 */
export function signVerifyingPaymaster08Data(
  parameters: SignVerifyingPaymaster08DataParameters,
): Promise<Hex> {
  return signVerifyingPaymasterData(parameters)
}

export interface CreateVerifyingPaymaster08Parameters {
  /** The deployed v0.8 VerifyingPaymaster. */
  address: Address
  signer: LocalAccount
  /** How long a sponsorship stays valid, in seconds; default 10 minutes. */
  validForSeconds?: number
  /** Unix seconds now; tests on a node with its own clock pass the node's. */
  now?: () => number
}

/**
 * ERC-7677-shaped paymaster actions for EntryPoint v0.8: the stub for gas
 * estimation, then the signed data for the final operation. A smart account
 * client's `paymaster`; the server picks it over the v0.7 one when the
 * request's entry point is {@link VERIFYING_PAYMASTER_08_ENTRY_POINT}.
 *
 * @example
 * const account = await toSimple7702SmartAccount({ client, owner })
 * const paymaster = createVerifyingPaymaster08({ address, signer: privateKeyToAccount(key) })
 * const client = createSmartAccountClient({ account, chain, bundlerTransport: http(bundlerUrl), paymaster })
 */
export function createVerifyingPaymaster08(parameters: CreateVerifyingPaymaster08Parameters): Pick<
  PaymasterActions,
  'getPaymasterData'
> & {
  getPaymasterStubData: () => Promise<GetPaymasterStubDataReturnType>
} {
  const v07 = createVerifyingPaymaster(parameters)
  return {
    getPaymasterStubData: v07.getPaymasterStubData,
    async getPaymasterData(
      request: GetPaymasterDataParameters,
    ): Promise<GetPaymasterDataReturnType> {
      if (
        request.entryPointAddress.toLowerCase() !== VERIFYING_PAYMASTER_08_ENTRY_POINT.toLowerCase()
      )
        throw new Error(
          `the v0.8 VerifyingPaymaster serves EntryPoint ${VERIFYING_PAYMASTER_08_ENTRY_POINT}, not ${request.entryPointAddress}`,
        )
      return v07.getPaymasterData(request)
    },
  }
}
