import { ENCLAVE_SHORT_INIT_TIMEOUT_MS } from '@latchkey/protocol/constants'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import type { EmbeddedWalletAccount } from '../user.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'

const toBase64url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
const fromBase64url = (text: string) =>
  Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0))

/**
 * Signs `message` (ed25519) with an embedded Solana wallet; resolves to the
 * 64-byte signature. The proxy gets 15 s to be ready (spec 03).
 */
export async function signSolanaMessage(
  client: LatchkeyClient,
  wallet: EmbeddedWalletAccount,
  message: Uint8Array,
): Promise<Uint8Array> {
  if (wallet.chainType !== 'solana') throw new LatchkeyError('UNSUPPORTED_METHOD')
  if (message.length === 0) throw new LatchkeyError('EMPTY_MESSAGE')
  await ensureWalletReady(client, wallet.entropyId)
  const { result } = await enclaveRequest<{ result: string }>(
    client,
    'latchkey:wallets:rpc',
    {
      entropy_id: wallet.entropyId,
      chain_type: 'solana',
      wallet_index: wallet.walletIndex,
      request: { method: 'signMessage', params: { message: toBase64url(message) } },
    },
    { initTimeoutMs: ENCLAVE_SHORT_INIT_TIMEOUT_MS },
  )
  return fromBase64url(result)
}
