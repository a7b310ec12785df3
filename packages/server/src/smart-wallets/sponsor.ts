import type { SmartWalletType } from '@latchkey/protocol'
import { type Address, numberToHex } from 'viem'
import type { UserOperation } from 'viem/account-abstraction'
import type { CredentialStore } from '../apps/credentials.ts'
import { callTargets } from './call-targets.ts'
import { assertAuditedDelegate } from './eip7702-delegate.ts'
import { assertGasPriceUnderCeiling } from './gas-price-ceiling.ts'
import { getPaymasterSigner } from './paymaster-key.ts'
import { verifyingPaymasterFor } from './paymaster-versions.ts'
import { SmartWalletRpcError } from './rpc-errors.ts'
import type { SponsorshipPolicy } from './settings.ts'
import {
  assertUnderCaps,
  type DailyCaps,
  reserveSponsoredOperation,
  sponsoredToday,
} from './sponsored-operations.ts'

/*
 * `pm_getPaymasterStubData` / `pm_getPaymasterData` answered by the app's
 * own VerifyingPaymaster (settings kind 'server'), under its
 * `sponsorship_policy` (docs/smart-wallets.md "Policy"): the calls' targets,
 * then the user's daily caps, reserved atomically before the signature.
 */

/** How long a sponsorship signature stays valid (docs/smart-wallets.md "Decisions"). */
export const SPONSORSHIP_VALID_FOR_S = 600

export interface SponsorParameters {
  store: CredentialStore
  appId: string
  userId: string
  chainId: number
  /** The account type the user's smart_wallet link records: how its callData is read. */
  accountType: SmartWalletType
  /** The VerifyingPaymaster the operator deployed on this chain. */
  paymaster: Address
  /** The chain's bundler: the gas price ceiling comes from it. */
  bundlerUrl: string
  /** The chain's node (LATCHKEY_RPC_URLS): an EIP-7702 account's delegate is read from it. */
  rpcUrl: string | undefined
  policy: SponsorshipPolicy | undefined
  entryPoint: string
  userOperation: UserOperation
  /** Epoch ms. */
  now: number
}

const capsOf = (policy: SponsorshipPolicy | undefined): DailyCaps => ({
  maxOperations: policy?.max_operations_per_user_per_day ?? null,
  maxGasCost:
    policy?.max_gas_cost_per_user_per_day != null
      ? BigInt(policy.max_gas_cost_per_user_per_day)
      : null,
})

/** Refuses calls outside `contracts` (and any callData it cannot read, when there is such a list). */
function assertAllowedTargets(parameters: SponsorParameters): void {
  const allowed = parameters.policy?.contracts
  if (allowed == null) return
  const targets = callTargets(parameters.accountType, parameters.userOperation.callData)
  if (targets === null)
    throw new SmartWalletRpcError(
      'SPONSORSHIP_CONTRACT_NOT_ALLOWED',
      'The app sponsors calls to listed contracts only, and the calls of this operation cannot be read.',
      { rule: 'contracts' },
    )
  const refused = targets.find((target) => !allowed.includes(target))
  if (refused !== undefined)
    throw new SmartWalletRpcError(
      'SPONSORSHIP_CONTRACT_NOT_ALLOWED',
      `The app does not sponsor calls to ${refused}.`,
      { rule: 'contracts', target: refused },
    )
}

/** The most the EntryPoint may take from the paymaster's deposit for the operation (v0.7 / v0.8 prefund). */
export function maxCostOf(userOperation: UserOperation): bigint {
  const u = userOperation as UserOperation<'0.7'>
  return (
    (u.callGasLimit +
      u.verificationGasLimit +
      u.preVerificationGas +
      (u.paymasterVerificationGasLimit ?? 0n) +
      (u.paymasterPostOpGasLimit ?? 0n)) *
    u.maxFeePerGas
  )
}

function versionFor(parameters: SponsorParameters) {
  const version = verifyingPaymasterFor(parameters.entryPoint)
  if (!version)
    throw new SmartWalletRpcError(
      'ENTRY_POINT_NOT_SUPPORTED',
      `The server's paymaster does not sponsor operations for EntryPoint ${parameters.entryPoint}.`,
    )
  return version
}

async function signerFor(parameters: SponsorParameters) {
  const signer = await getPaymasterSigner(parameters.store, parameters.appId)
  if (!signer)
    throw new SmartWalletRpcError(
      'SPONSORSHIP_UNAVAILABLE',
      'The app has no paymaster signer yet (latchkey apps smart-wallets paymaster-key).',
    )
  return signer
}

/**
 * `pm_getPaymasterStubData`: the stub for gas estimation, once the policy
 * would allow the operation (targets, and caps as they stand; nothing is
 * reserved yet). RPC form: quantities as hex.
 */
export async function sponsorStubData(parameters: SponsorParameters) {
  const version = versionFor(parameters)
  assertAllowedTargets(parameters)
  if (parameters.accountType === 'simple_7702')
    await assertAuditedDelegate(parameters.userOperation, parameters.rpcUrl)
  await signerFor(parameters)
  const used = await sponsoredToday(parameters.store.db, parameters, parameters.now, {
    sender: parameters.userOperation.sender.toLowerCase(),
    nonce: parameters.userOperation.nonce,
  })
  assertUnderCaps(
    { operations: used.operations + 1, gasCost: used.gasCost },
    capsOf(parameters.policy),
  )
  const stub = version.stubData(parameters.paymaster)
  return {
    paymaster: stub.paymaster,
    paymasterData: stub.paymasterData,
    paymasterVerificationGasLimit: numberToHex(stub.paymasterVerificationGasLimit ?? 0n),
    paymasterPostOpGasLimit: numberToHex(stub.paymasterPostOpGasLimit ?? 0n),
    isFinal: false,
  }
}

/**
 * `pm_getPaymasterData`: checks the targets and the gas price, reserves the
 * operation under the daily caps (atomically: sponsored-operations.ts), then
 * signs it.
 */
export async function sponsorData(parameters: SponsorParameters) {
  const version = versionFor(parameters)
  assertAllowedTargets(parameters)
  if (parameters.accountType === 'simple_7702')
    await assertAuditedDelegate(parameters.userOperation, parameters.rpcUrl)
  const signer = await signerFor(parameters)
  const userOperation = {
    ...parameters.userOperation,
    paymasterVerificationGasLimit:
      parameters.userOperation.paymasterVerificationGasLimit ?? version.verificationGas,
    paymasterPostOpGasLimit: parameters.userOperation.paymasterPostOpGasLimit ?? version.postOpGas,
  } as UserOperation
  await assertGasPriceUnderCeiling(parameters.bundlerUrl, userOperation)
  await reserveSponsoredOperation(
    parameters.store.db,
    {
      appId: parameters.appId,
      userId: parameters.userId,
      chainId: parameters.chainId,
      sender: userOperation.sender.toLowerCase(),
      nonce: userOperation.nonce,
      maxCost: maxCostOf(userOperation),
    },
    capsOf(parameters.policy),
    parameters.now,
  )
  const validUntil = Math.floor(parameters.now / 1000) + SPONSORSHIP_VALID_FOR_S
  const paymasterData = await version.sign({
    userOperation,
    chainId: parameters.chainId,
    paymaster: parameters.paymaster,
    signer,
    validUntil,
    validAfter: 0,
  })
  return {
    paymaster: parameters.paymaster,
    paymasterData,
    paymasterVerificationGasLimit: numberToHex(
      (userOperation as UserOperation<'0.7'>).paymasterVerificationGasLimit ?? 0n,
    ),
    paymasterPostOpGasLimit: numberToHex(
      (userOperation as UserOperation<'0.7'>).paymasterPostOpGasLimit ?? 0n,
    ),
  }
}
