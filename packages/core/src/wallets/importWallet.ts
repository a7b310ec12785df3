import { ENCLAVE_SHORT_INIT_TIMEOUT_MS } from '@latchkey/protocol/constants'
import type { UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { type EmbeddedWalletAccount, toUser } from '../user.ts'
import { embeddedWallets } from './createWallet.ts'
import { enclaveRequest } from './enclave.ts'

export interface ImportWalletParameters {
  /** Hex (Ethereum) or base58 / 64-byte secret key (Solana). Handed to the enclave, never stored here. */
  privateKey: string
  /** Default `ethereum`. */
  chainType?: 'ethereum' | 'solana'
}

/**
 * Imports an existing private key as an embedded wallet (`imported: true`):
 * the enclave splits it into its own shares, exactly like a created wallet.
 * The proxy gets 15 s to be ready (spec 02).
 *
 * @example
 * const wallet = await importWallet(client, { privateKey: '0x…' })
 */
export async function importWallet(
  client: LatchkeyClient,
  { privateKey, chainType = 'ethereum' }: ImportWalletParameters,
): Promise<EmbeddedWalletAccount> {
  const before = embeddedWallets(client.session.getState().user)
  const key = privateKey.trim()
  if (!key) throw new LatchkeyError('WALLET_IMPORT_FAILED')
  const { user } = await enclaveRequest<{ user: UserWire }>(
    client,
    'latchkey:wallets:import',
    { chain_type: chainType, private_key: key },
    { initTimeoutMs: ENCLAVE_SHORT_INIT_TIMEOUT_MS, notAuthenticated: 'WALLET_NOT_AUTHENTICATED' },
  )
  const updated = toUser(user)
  client.session.setUser(updated)
  const imported = embeddedWallets(updated, chainType).find(
    (w) => w.imported && !before.some((b) => b.address === w.address),
  )
  if (!imported) throw new LatchkeyError('WALLET_IMPORT_FAILED')
  return imported
}
