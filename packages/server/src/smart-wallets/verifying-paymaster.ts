// Our own sponsorship: eth-infinitism's VerifyingPaymaster v0.7 pays for a
// user operation when its `paymasterData` carries the verifying signer's
// signature over the operation and a validity window. The server holds that
// key and signs within per-app policy (sponsor.ts); this module is the
// signing itself, viem only. EntryPoint v0.8 has its own variant
// (verifying-paymaster-08.ts), chosen by entry point in paymaster-versions.ts.
import {
  type Address,
  concat,
  encodeAbiParameters,
  type Hex,
  keccak256,
  type LocalAccount,
  pad,
  toHex,
} from 'viem'
import {
  type GetPaymasterDataParameters,
  type GetPaymasterDataReturnType,
  type GetPaymasterStubDataReturnType,
  type PaymasterActions,
  toPackedUserOperation,
  type UserOperation,
} from 'viem/account-abstraction'

/** Gas the VerifyingPaymaster's `validatePaymasterUserOp` may use (one ecrecover and a decode: ~30 k). */
export const VERIFYING_PAYMASTER_VERIFICATION_GAS = 100_000n
/** VerifyingPaymaster v0.7 returns no context, so the EntryPoint never calls its `postOp`. */
export const VERIFYING_PAYMASTER_POST_OP_GAS = 0n

/**
 * A 65-byte signature that ecrecovers (to no one in particular): the
 * paymaster's `ECDSA.recover` reverts on malformed signatures, so the stub
 * used for gas estimation must be well-formed. It fails validation, which
 * bundlers ignore while estimating.
 */
const STUB_SIGNATURE: Hex =
  '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

export interface VerifyingPaymasterHashParameters {
  userOperation: Pick<
    UserOperation<'0.7'>,
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
 * VerifyingPaymaster v0.7's `getHash(userOp, validUntil, validAfter)`,
 * computed off-chain: every field of the packed operation but the signatures
 * and paymaster data, plus chain id, paymaster address and the window.
 */
export function getVerifyingPaymasterHash({
  userOperation,
  chainId,
  paymaster,
  validUntil,
  validAfter,
}: VerifyingPaymasterHashParameters): Hex {
  const packed = toPackedUserOperation({
    ...userOperation,
    signature: '0x',
    paymaster,
    paymasterData: '0x',
  } as UserOperation<'0.7'>)
  const paymasterGasLimits = concat([
    pad(toHex(userOperation.paymasterVerificationGasLimit ?? 0n), { size: 16 }),
    pad(toHex(userOperation.paymasterPostOpGasLimit ?? 0n), { size: 16 }),
  ])
  return keccak256(
    encodeAbiParameters(
      [
        { type: 'address' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'uint256' },
        { type: 'bytes32' },
        { type: 'uint256' },
        { type: 'address' },
        { type: 'uint48' },
        { type: 'uint48' },
      ],
      [
        packed.sender,
        packed.nonce,
        keccak256(packed.initCode),
        keccak256(packed.callData),
        packed.accountGasLimits,
        BigInt(paymasterGasLimits),
        packed.preVerificationGas,
        packed.gasFees,
        BigInt(chainId),
        paymaster,
        validUntil,
        validAfter,
      ],
    ),
  )
}

/** The stub paymaster fields for gas estimation (ERC-7677 `pm_getPaymasterStubData`). */
export function getVerifyingPaymasterStubData(address: Address): GetPaymasterStubDataReturnType {
  return {
    paymaster: address,
    paymasterData: paymasterData(0, 0, STUB_SIGNATURE),
    paymasterVerificationGasLimit: VERIFYING_PAYMASTER_VERIFICATION_GAS,
    paymasterPostOpGasLimit: VERIFYING_PAYMASTER_POST_OP_GAS,
    isFinal: false,
  }
}

function paymasterData(validUntil: number, validAfter: number, signature: Hex): Hex {
  return concat([
    encodeAbiParameters([{ type: 'uint48' }, { type: 'uint48' }], [validUntil, validAfter]),
    signature,
  ])
}

export interface SignVerifyingPaymasterDataParameters extends VerifyingPaymasterHashParameters {
  /** The paymaster's `verifyingSigner`. */
  signer: LocalAccount
}

/**
 * The `paymasterData` that makes the paymaster sponsor this exact operation
 * within [validAfter, validUntil]: `abi.encode(uint48, uint48) ++ signature`,
 * the signature an EIP-191 personal signature over `getHash`.
 */
export async function signVerifyingPaymasterData(
  parameters: SignVerifyingPaymasterDataParameters,
): Promise<Hex> {
  const hash = getVerifyingPaymasterHash(parameters)
  const signature = await parameters.signer.signMessage({ message: { raw: hash } })
  return paymasterData(parameters.validUntil, parameters.validAfter, signature)
}

export interface CreateVerifyingPaymasterParameters {
  /** The deployed VerifyingPaymaster v0.7. */
  address: Address
  signer: LocalAccount
  /** How long a sponsorship stays valid, in seconds; default 10 minutes. */
  validForSeconds?: number
  /** Unix seconds now; tests on a node with its own clock pass the node's. */
  now?: () => number
}

/**
 * ERC-7677-shaped paymaster actions backed by a local verifying signer: the
 * stub for estimation, then the signed data for the final operation (a
 * smart account client's `paymaster`). The server serves the same signing
 * behind `pm_getPaymasterStubData`/`pm_getPaymasterData` (sponsor.ts).
 *
 * @example
 * const paymaster = createVerifyingPaymaster({ address, signer: privateKeyToAccount(key) })
 * const client = createSmartAccountClient({ account, chain, bundlerTransport: http(bundlerUrl), paymaster })
 */
export function createVerifyingPaymaster({
  address,
  signer,
  validForSeconds = 600,
  now = () => Math.floor(Date.now() / 1000),
}: CreateVerifyingPaymasterParameters): Pick<PaymasterActions, 'getPaymasterData'> & {
  getPaymasterStubData: () => Promise<GetPaymasterStubDataReturnType>
} {
  return {
    getPaymasterStubData: async () => getVerifyingPaymasterStubData(address),
    async getPaymasterData(parameters: GetPaymasterDataParameters) {
      const paymasterVerificationGasLimit =
        parameters.paymasterVerificationGasLimit ?? VERIFYING_PAYMASTER_VERIFICATION_GAS
      const paymasterPostOpGasLimit =
        parameters.paymasterPostOpGasLimit ?? VERIFYING_PAYMASTER_POST_OP_GAS
      const validAfter = 0
      const validUntil = now() + validForSeconds
      // viem hands over the prepared operation: all gas fields are filled by now.
      const userOperation = parameters as unknown as UserOperation<'0.7'>
      const data = await signVerifyingPaymasterData({
        userOperation: {
          ...userOperation,
          paymasterVerificationGasLimit,
          paymasterPostOpGasLimit,
        },
        chainId: parameters.chainId,
        paymaster: address,
        validUntil,
        validAfter,
        signer,
      })
      return {
        paymaster: address,
        paymasterData: data,
        paymasterVerificationGasLimit,
        paymasterPostOpGasLimit,
      } satisfies GetPaymasterDataReturnType
    },
  }
}
