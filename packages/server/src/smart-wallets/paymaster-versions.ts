import type { Address, Hex, LocalAccount } from 'viem'
import {
  entryPoint07Address,
  type GetPaymasterStubDataReturnType,
  type UserOperation,
} from 'viem/account-abstraction'
import {
  getVerifyingPaymasterStubData,
  signVerifyingPaymasterData,
  VERIFYING_PAYMASTER_POST_OP_GAS,
  VERIFYING_PAYMASTER_VERIFICATION_GAS,
} from './verifying-paymaster.ts'
import {
  signVerifyingPaymaster08Data,
  VERIFYING_PAYMASTER_08_ENTRY_POINT,
} from './verifying-paymaster-08.ts'

/*
 * The VerifyingPaymaster variants the server signs for, by the EntryPoint a
 * `pm_*` request names (ERC-7677 `params[1]`): v0.7 for SimpleAccount and
 * Safe, v0.8 (verifying-paymaster-08.ts) for the EIP-7702 account. An app has
 * one smart-wallet type, so a chain's one paymaster address is the variant
 * its type uses (docs/smart-wallets.md "Sponsored gas").
 */

export interface VerifyingPaymasterVersion {
  /** Gas the paymaster's validation may use, unless the operation names its own. */
  verificationGas: bigint
  /** Gas of its `postOp` (none for VerifyingPaymaster). */
  postOpGas: bigint
  /** The stub fields for gas estimation. */
  stubData(paymaster: Address): GetPaymasterStubDataReturnType
  /** The `paymasterData` sponsoring exactly this operation within [validAfter, validUntil]. */
  sign(parameters: {
    userOperation: UserOperation
    chainId: number
    paymaster: Address
    signer: LocalAccount
    /** Unix seconds. */
    validUntil: number
    validAfter: number
  }): Promise<Hex>
}

const verifyingPaymaster07: VerifyingPaymasterVersion = {
  verificationGas: VERIFYING_PAYMASTER_VERIFICATION_GAS,
  postOpGas: VERIFYING_PAYMASTER_POST_OP_GAS,
  stubData: getVerifyingPaymasterStubData,
  sign: ({ userOperation, ...rest }) =>
    signVerifyingPaymasterData({ userOperation: userOperation as UserOperation<'0.7'>, ...rest }),
}

const verifyingPaymaster08: VerifyingPaymasterVersion = {
  ...verifyingPaymaster07,
  sign: ({ userOperation, ...rest }) =>
    signVerifyingPaymaster08Data({ userOperation: userOperation as UserOperation<'0.8'>, ...rest }),
}

/** By lowercase EntryPoint address. */
export const VERIFYING_PAYMASTERS: Readonly<Record<string, VerifyingPaymasterVersion>> = {
  [entryPoint07Address.toLowerCase()]: verifyingPaymaster07,
  [VERIFYING_PAYMASTER_08_ENTRY_POINT.toLowerCase()]: verifyingPaymaster08,
}

/** The variant for an EntryPoint, or undefined when the server signs for none there. */
export const verifyingPaymasterFor = (entryPoint: string): VerifyingPaymasterVersion | undefined =>
  VERIFYING_PAYMASTERS[entryPoint.toLowerCase()]
