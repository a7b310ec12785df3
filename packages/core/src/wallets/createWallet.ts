import type { RecoveryChoice, UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { type EmbeddedWalletAccount, isEmbeddedWallet, toUser, type User } from '../user.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'
import { setPasswordAfterCreate } from './passwordAfterCreate.ts'

export interface CreateWalletParameters {
  /** Default `ethereum`. */
  chainType?: 'ethereum' | 'solana'
  /** Create another HD wallet (next index) when the user already has one on this chain. */
  createAdditional?: boolean
  /**
   * How a brand-new secret is recoverable; default automatic (`latchkey`). A
   * password with an existing automatic secret is set on it after the wallet
   * is added (WALLET_PASSWORD_NOT_SET when that fails: passwordAfterCreate.ts).
   */
  recovery?: RecoveryChoice
}

/** The user's embedded wallets, optionally on one chain, in index order. */
export function embeddedWallets(user: User | null, chainType?: 'ethereum' | 'solana') {
  return (user?.linkedAccounts ?? [])
    .filter(isEmbeddedWallet)
    .filter((a) => !chainType || a.chainType === chainType)
    .sort((a, b) => (a.walletIndex ?? -1) - (b.walletIndex ?? -1))
}

/**
 * Creates an embedded wallet in the enclave. The first wallet creates the
 * user's secret (its shares are stored before the address is returned);
 * later ones are further HD indexes of it. Without `createAdditional`, a user
 * who already has a wallet on the chain gets "User already has an embedded
 * wallet.".
 *
 * @example
 * const wallet = await createWallet(client)                              // Ethereum, index 0
 * const second = await createWallet(client, { createAdditional: true })  // index 1
 * const solana = await createWallet(client, { chainType: 'solana' })
 */
export async function createWallet(
  client: LatchkeyClient,
  { chainType = 'ethereum', createAdditional = false, recovery }: CreateWalletParameters = {},
): Promise<EmbeddedWalletAccount> {
  const { user } = client.session.getState()
  if (!user) throw new LatchkeyError('WALLET_NOT_AUTHENTICATED')
  const hd = embeddedWallets(user).filter((w) => !w.imported)
  const onChain = hd.filter((w) => w.chainType === chainType)
  if (onChain.length > 0 && !createAdditional) throw new LatchkeyError('WALLET_ALREADY_EXISTS')

  let answer: { user: UserWire }
  const first = hd[0]
  if (!first) {
    answer = await enclaveRequest(
      client,
      'latchkey:wallets:create',
      { chain_types: [chainType], recovery: recovery ?? { method: 'latchkey' } },
      { notAuthenticated: 'WALLET_NOT_AUTHENTICATED' },
    )
  } else {
    await ensureWalletReady(client, first.entropyId)
    const next = onChain.reduce((max, w) => Math.max(max, (w.walletIndex ?? -1) + 1), 0)
    answer = await enclaveRequest(
      client,
      'latchkey:wallets:add',
      { entropy_id: first.entropyId, chain_type: chainType, wallet_index: next },
      { notAuthenticated: 'WALLET_NOT_AUTHENTICATED' },
    )
  }
  const updated = toUser(answer.user)
  client.session.setUser(updated)
  const created = embeddedWallets(updated, chainType).filter(
    (w) => !onChain.some((o) => o.address === w.address),
  )[0]
  if (!created) throw new LatchkeyError('WALLET_CREATION_FAILED')
  if (!first) return created
  const protectedUser = await setPasswordAfterCreate(client, updated, first.entropyId, recovery)
  return (
    embeddedWallets(protectedUser, chainType).find((w) => w.address === created.address) ?? created
  )
}
