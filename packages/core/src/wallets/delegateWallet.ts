import type { UserWire } from '@latchkey/protocol/schemas'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { type EmbeddedWalletAccount, toUser, type User } from '../user.ts'
import { embeddedWallets } from './createWallet.ts'
import { enclaveRequest } from './enclave.ts'
import { ensureWalletReady } from './ensureWalletReady.ts'

export interface DelegateWalletParameters {
  /** The embedded wallet to delegate. */
  address: string
  /** Spec 03 §5: only Ethereum and Solana embedded wallets can be delegated. */
  chainType: 'ethereum' | 'solana'
}

export type DelegateWalletReturnType = User

/** Ethereum addresses compare without case (EIP-55 is a checksum only); base58 compares exactly. */
const sameAddress = (chainType: string, a: string, b: string) =>
  chainType === 'ethereum' ? a.toLowerCase() === b.toLowerCase() : a === b

/**
 * The user's own embedded wallet at `address` on `chainType`. Without a
 * session: NOT_AUTHENTICATED. Spec 03 §5: any other address (another user's,
 * an external wallet, another chain, a chain other than Ethereum or Solana)
 * is DELEGATION_ADDRESS_NOT_OWNED, 'Address to delegate is not associated
 * with current user.'
 *
 * @example
 * const wallet = walletToDelegate(client.session.getState().user, { address, chainType: 'ethereum' })
 */
export function walletToDelegate(
  user: User | null,
  { address, chainType }: DelegateWalletParameters,
): EmbeddedWalletAccount {
  if (!user) throw new LatchkeyError('NOT_AUTHENTICATED')
  const wallet =
    chainType === 'ethereum' || chainType === 'solana'
      ? embeddedWallets(user, chainType).find((w) => sameAddress(chainType, w.address, address))
      : undefined
  if (!wallet) throw new LatchkeyError('DELEGATION_ADDRESS_NOT_OWNED')
  return wallet
}

/**
 * Delegated actions (spec 03 §2; docs/delegated-actions.md): lets the app's
 * backend sign with this embedded wallet while the user is offline. The
 * enclave seals its share of the wallet's secret to the server's delegation
 * key and hands it to the server; the key never reaches this page. The
 * wallet is first made usable on this device (recovered automatically where
 * it can be; RECOVERY_REQUIRED otherwise). With MFA, the user verifies first
 * (the route wants a fresh verification: `withMfa`). Resolves with the
 * updated user, whose wallet now has `delegated: true`.
 *
 * No consent screen here: `@latchkey/react`'s `useDelegatedActions` asks first.
 *
 * @example
 * const user = await delegateWallet(client, { address: wallet.address, chainType: 'ethereum' })
 */
export async function delegateWallet(
  client: LatchkeyClient,
  parameters: DelegateWalletParameters,
): Promise<DelegateWalletReturnType> {
  const wallet = walletToDelegate(client.session.getState().user, parameters)
  await ensureWalletReady(client, wallet.entropyId)
  const { user } = await enclaveRequest<{ user: UserWire }>(client, 'latchkey:delegate', {
    address: wallet.address,
    chain_type: wallet.chainType,
  })
  const updated = toUser(user)
  client.session.setUser(updated)
  return updated
}
