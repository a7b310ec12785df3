import type { RecoveryChoice, UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { toUser, type User } from '../user.ts'
import { embeddedWallets } from './createWallet.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady, type RecoveryCredentials } from './ensureWalletReady.ts'
import { setPasswordAfterCreate } from './passwordAfterCreate.ts'

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
 * `users-without-wallets`: only users with no linked wallet of any kind on
 * that chain, so a user who logged in with (or linked) MetaMask or Phantom
 * gets no embedded wallet on that chain.
 */
export function chainsToCreateOnLogin(
  user: User,
  config: CreateOnLoginConfig,
): Array<'ethereum' | 'solana'> {
  const chains: Array<'ethereum' | 'solana'> = []
  for (const chain of ['ethereum', 'solana'] as const) {
    const setting = config[chain]
    if (setting === 'off') continue
    const onChain = user.linkedAccounts.filter((a) => a.type === 'wallet' && a.chainType === chain)
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
 * when that needs a password or a consent not given; a password `recovery`
 * is then set on it, WALLET_PASSWORD_NOT_SET when that fails:
 * passwordAfterCreate.ts). Resolves to the updated user.
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
    user = withWallets(toUser(wire), chains)
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
    user = withWallets(toUser(wire), [chain])
    client.session.setUser(user)
  }
  // A password asked for (the 'Secure your account' wizard) also protects the existing secret.
  return setPasswordAfterCreate(client, user, secret.entropyId, recovery)
}

/**
 * The enclave's answer must hold an embedded wallet on every chain it
 * created; one without is WALLET_DATA_MISSING ('Wallet data is missing',
 * spec 02 §8) rather than a login that silently has no wallet.
 */
function withWallets(user: User, chains: Array<'ethereum' | 'solana'>): User {
  const missing = chains.filter((chain) => embeddedWallets(user, chain).length === 0)
  if (missing.length > 0)
    throw new LatchkeyError(
      'WALLET_DATA_MISSING',
      `No ${missing.join(' or ')} wallet in the answer`,
    )
  return user
}
