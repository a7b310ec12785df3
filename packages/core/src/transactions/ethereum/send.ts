import { type Address, BaseError, type Hex } from 'viem'
import { sendRawTransaction, waitForTransactionReceipt } from 'viem/actions'
import { LatchkeyError } from '../../errors.ts'
import type { ChainClient } from './chain-client.ts'
import type { EthereumSendResult, PreparedEthereumTransaction } from './types.ts'

/** What the signer gets: the prepared request and the account that signs it. */
export type EthereumTransactionToSign = PreparedEthereumTransaction['request'] & { from: Address }

export interface SendPreparedEthereumTransactionParameters {
  client: ChainClient
  prepared: PreparedEthereumTransaction
  /**
   * Signs the request and answers the signed, serialized transaction (the
   * enclave's job: this code never sees the key).
   */
  sign: (request: EthereumTransactionToSign) => Promise<Hex>
  /** How long to wait for the receipt, in ms; default viem's (3 minutes). */
  timeout?: number
}
export type SendPreparedEthereumTransactionReturnType = EthereumSendResult

/**
 * Signs a prepared transaction through `sign`, broadcasts it and waits for
 * its receipt (spec 03 §4 "Ethereum transaction": submit, then wait for the
 * receipt).
 *
 * Throws LatchkeyError:
 * - TRANSACTION_REVERTED ('Transaction failed') for a reverted receipt,
 *   `details: { hash, receipt }`;
 * - TRANSACTION_FAILURE when the node refuses the transaction or the wait
 *   fails, `details: { message, hash? }` (the hash once it was broadcast,
 *   so 'Retry transaction' knows to take a fresh nonce);
 * - TRANSACTION_SIGN_FAILED when `sign` throws anything but a LatchkeyError
 *   (which passes through as is: a user rejection keeps its code).
 *
 * @example
 * const { hash, receipt } = await sendPreparedEthereumTransaction({
 *   client,
 *   prepared,
 *   sign: (request) => enclave.signTransaction(request),
 * })
 */
export async function sendPreparedEthereumTransaction({
  client,
  prepared,
  sign,
  timeout,
}: SendPreparedEthereumTransactionParameters): Promise<SendPreparedEthereumTransactionReturnType> {
  let signed: Hex
  try {
    signed = await sign({ ...prepared.request, from: prepared.from })
  } catch (error) {
    if (error instanceof LatchkeyError) throw error
    throw new LatchkeyError('TRANSACTION_SIGN_FAILED', undefined, {
      cause: error,
      details: { message: messageOf(error) },
    })
  }

  let hash: Hex | undefined
  try {
    hash = await sendRawTransaction(client, { serializedTransaction: signed })
    const receipt = await waitForTransactionReceipt(client, {
      hash,
      ...(timeout === undefined ? {} : { timeout }),
    })
    if (receipt.status === 'reverted')
      throw new LatchkeyError('TRANSACTION_REVERTED', undefined, { details: { hash, receipt } })
    return { hash, receipt }
  } catch (error) {
    if (error instanceof LatchkeyError) throw error
    throw new LatchkeyError('TRANSACTION_FAILURE', messageOf(error), {
      cause: error,
      details: { message: messageOf(error), ...(hash === undefined ? {} : { hash }) },
    })
  }
}

/** The node's own words when viem kept them (`details`), else viem's summary. */
function messageOf(error: unknown): string {
  if (error instanceof BaseError) return error.details || error.shortMessage
  return error instanceof Error ? error.message : String(error)
}
