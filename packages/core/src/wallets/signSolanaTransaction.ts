import { base64url } from '@scure/base'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import type { EmbeddedWalletAccount } from '../user.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'

const encode = (bytes: Uint8Array) => base64url.encode(bytes).replace(/=+$/, '')
const decode = (text: string) => base64url.decode(text.padEnd(Math.ceil(text.length / 4) * 4, '='))

/**
 * Signs a Solana wire transaction (legacy or v0) with an embedded Solana
 * wallet, in the enclave: the answer is the same transaction with this
 * wallet's signature in its slot. The enclave refuses a transaction the
 * wallet is not a signer of.
 *
 * @example
 * const signed = await signSolanaTransaction(client, wallet, getTransactionEncoder().encode(tx))
 */
export async function signSolanaTransaction(
  client: LatchkeyClient,
  wallet: EmbeddedWalletAccount,
  transaction: Uint8Array,
): Promise<Uint8Array> {
  if (wallet.chainType !== 'solana') throw new LatchkeyError('UNSUPPORTED_METHOD')
  await ensureWalletReady(client, wallet.entropyId)
  const { result } = await enclaveRequest<{ result: string }>(client, 'latchkey:wallets:rpc', {
    entropy_id: wallet.entropyId,
    chain_type: 'solana',
    wallet_index: wallet.walletIndex,
    request: { method: 'signTransaction', params: { transaction: encode(transaction) } },
  })
  return decode(result)
}
