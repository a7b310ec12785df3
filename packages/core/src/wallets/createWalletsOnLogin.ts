import type { RecoveryChoice, UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { isEmbeddedWallet, toUser, type User } from '../user.ts'
import { embeddedWallets } from './createWallet.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady, type RecoveryCredentials } from './ensureWalletReady.ts'

/** `embeddedWallets.createOnLogin` per chain (spec 01 §3). */
export type CreateOnLogin = 'all-users' | 'users-without-wallets' | 'off'

export interface CreateOnLoginConfig {
  ethereum: CreateOnLogin
  solana: CreateOnLogin
}

/**
 * The chains to create an index-0 wallet on right after login, Ethereum first.
 * Guests count as users (spec 02: wallet creation is for authenticated users).
 * `all-users`: anyone without an embedded wallet on that chain;
 * `users-without-wallets`: only users with no wallet of any kind on that chain
 * (external wallets count once they can be linked).
 */
export function chainsToCreateOnLogin(
  user: User,
  config: CreateOnLoginConfig,
): Array<'ethereum' | 'solana'> {
  const chains: Array<'ethereum' | 'solana'> = []
  for (const chain of ['ethereum', 'solana'] as const) {
    const setting = config[chain]
    if (setting === 'off') continue
    const onChain = user.linkedAccounts.filter((a) => isEmbeddedWallet(a) && a.chainType === chain)
    const embeddedOnChain = embeddedWallets(user, chain)
    if (setting === 'all-users' ? embeddedOnChain.length === 0 : onChain.length === 0)
      chains.push(chain)
  }
  return chains
}

/**
 * Creates the post-login wallets: a new secret with all of `chains` in one
 * step when the user has none, else index 0 on each missing chain of the
 * existing secret (recovering it on this device first: RECOVERY_REQUIRED
 * when that needs a password or a consent not given). Resolves to the
 * updated user.
 */
export async function createWalletsOnLogin(
  client: LatchkeyClient,
  chains: Array<'ethereum' | 'solana'>,
  /** How a new secret is recoverable (default automatic); a password when the app requires user-owned recovery. */
  recovery: RecoveryChoice = { method: 'latchkey' },
  /** Recovers an existing secret on a new device before adding wallets to it (password, consent). */
  credentials?: RecoveryCredentials,
): Promise<User | null> {
  let user = client.session.getState().user
  if (!user || chains.length === 0) return user
  const secret = embeddedWallets(user).find((w) => !w.imported)
  if (!secret) {
    const { user: wire } = await enclaveRequest<{ user: UserWire }>(
      client,
      'latchkey:wallets:create',
      { chain_types: chains, recovery },
      { notAuthenticated: 'WALLET_NOT_AUTHENTICATED' },
    )
    user = toUser(wire)
    client.session.setUser(user)
    return user
  }
  await ensureWalletReady(client, secret.entropyId, credentials)
  for (const chain of chains) {
    const { user: wire } = await enclaveRequest<{ user: UserWire }>(
      client,
      'latchkey:wallets:add',
      { entropy_id: secret.entropyId, chain_type: chain, wallet_index: 0 },
      { notAuthenticated: 'WALLET_NOT_AUTHENTICATED' },
    )
    user = toUser(wire)
    client.session.setUser(user)
  }
  return user
}
