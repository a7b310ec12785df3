import type { Chain, Hex } from 'viem'
import type { LatchkeyClient } from '../client.ts'
import { chainClient } from '../transactions/ethereum/chain-client.ts'
import { prepareEthereumTransaction } from '../transactions/ethereum/prepare.ts'
import { sendPreparedEthereumTransaction } from '../transactions/ethereum/send.ts'
import type {
  EthereumSendResult,
  EthereumTransactionInput,
  PreparedEthereumTransaction,
} from '../transactions/ethereum/types.ts'
import { insufficientBalance } from '../transactions/insufficient-balance.ts'
import type { EmbeddedWalletAccount } from '../user.ts'
import { signEthereumTransaction } from './signEthereumTransaction.ts'

export interface SendEthereumTransactionParameters {
  chain: Chain
  input: EthereumTransactionInput
}

/**
 * Prepares, signs (in the enclave) and sends a transaction from an embedded
 * Ethereum wallet, then waits for its receipt: the path without the confirm
 * screen (`showWalletUIs: false`). A wallet without the funds fails with
 * INSUFFICIENT_BALANCE before anything is signed; a reverted receipt with
 * TRANSACTION_REVERTED.
 *
 * @example
 * const { hash, receipt } = await sendEthereumTransaction(client, wallet, {
 *   chain: sepolia,
 *   input: { to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', value: parseEther('0.01') },
 * })
 */
export async function sendEthereumTransaction(
  client: LatchkeyClient,
  wallet: EmbeddedWalletAccount,
  { chain, input }: SendEthereumTransactionParameters,
): Promise<EthereumSendResult> {
  const prepared = await prepareWithFunds(wallet, chain, input)
  return sendPreparedEthereumTransaction({
    client: chainClient(chain),
    prepared,
    sign: (request) => signEthereumTransaction(client, wallet, request),
  })
}

/** Like {@link sendEthereumTransaction}, but only signs: the signed serialized transaction. */
export async function signEthereumTransactionRequest(
  client: LatchkeyClient,
  wallet: EmbeddedWalletAccount,
  { chain, input }: SendEthereumTransactionParameters,
): Promise<Hex> {
  const prepared = await prepareEthereumTransaction({
    client: chainClient(chain),
    chain,
    from: wallet.address as Hex,
    input,
  })
  return signEthereumTransaction(client, wallet, prepared.request)
}

async function prepareWithFunds(
  wallet: EmbeddedWalletAccount,
  chain: Chain,
  input: EthereumTransactionInput,
): Promise<PreparedEthereumTransaction> {
  const prepared = await prepareEthereumTransaction({
    client: chainClient(chain),
    chain,
    from: wallet.address as Hex,
    input,
  })
  if (!prepared.hasFunds)
    throw insufficientBalance('ethereum', wallet.address, {
      balance: prepared.balance,
      required: prepared.request.value + prepared.estimatedFee,
    })
  return prepared
}
