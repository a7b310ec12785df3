import type { EthereumTransactionWire } from '@latchkey/protocol/schemas'
import { type Hex, numberToHex } from 'viem'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import type { PreparedEthereumTransaction } from '../transactions/ethereum/types.ts'
import type { EmbeddedWalletAccount } from '../user.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'

export type SignEthereumTransactionParameters = PreparedEthereumTransaction['request']
/** The signed transaction, serialized (EIP-2718), ready for `eth_sendRawTransaction`. */
export type SignEthereumTransactionReturnType = Hex

/** The prepared request as the enclave takes it (quantities as 0x-hex). */
export function toTransactionWire(
  from: string,
  request: SignEthereumTransactionParameters,
): EthereumTransactionWire {
  const hex = (value: bigint | undefined) => (value === undefined ? undefined : numberToHex(value))
  return {
    from,
    chainId: request.chainId,
    type: request.type,
    to: request.to,
    data: request.data,
    value: numberToHex(request.value),
    nonce: request.nonce,
    gas: numberToHex(request.gas),
    maxFeePerGas: hex(request.maxFeePerGas),
    maxPriorityFeePerGas: hex(request.maxPriorityFeePerGas),
    gasPrice: hex(request.gasPrice),
  }
}

/**
 * Signs a prepared transaction with an embedded Ethereum wallet, in the
 * enclave (MFA first where the user has it: `enclaveRequest` runs `withMfa`).
 * Every field is filled in beforehand, so what the user confirmed is what is
 * signed; the key never leaves the enclave.
 *
 * @example
 * const prepared = await prepareEthereumTransaction({ client: publicClient, chain, from, input })
 * const signed = await signEthereumTransaction(client, wallet, prepared.request)
 */
export async function signEthereumTransaction(
  client: LatchkeyClient,
  wallet: EmbeddedWalletAccount,
  request: SignEthereumTransactionParameters,
): Promise<SignEthereumTransactionReturnType> {
  if (wallet.chainType !== 'ethereum') throw new LatchkeyError('UNSUPPORTED_METHOD')
  await ensureWalletReady(client, wallet.entropyId)
  const { result } = await enclaveRequest<{ result: Hex }>(client, 'latchkey:wallets:rpc', {
    entropy_id: wallet.entropyId,
    chain_type: 'ethereum',
    wallet_index: wallet.walletIndex,
    request: {
      method: 'eth_signTransaction',
      params: [toTransactionWire(wallet.address, request)],
    },
  })
  return result
}
