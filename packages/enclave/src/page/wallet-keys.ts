import {
  combineShares,
  deriveEthereumAccount,
  deriveEthereumAccountFromSeed,
  deriveSolanaAccount,
  deriveSolanaAccountFromSeed,
  EnclaveError,
  type EthereumAccount,
  hdSeedOf,
  type SolanaAccount,
  sameEntropyId,
  type WalletSecret,
  wipeSecret,
} from '@latchkey/protocol/keys'
import type { ChainType } from '@latchkey/protocol/schemas'
import { PageError } from './errors.ts'

/** Accounts kept per chain; past that an account is derived for each use and not kept. */
const MAX_KEPT_ACCOUNTS = 16

/**
 * A rebuilt secret whose accounts are derived at most once each. An HD
 * secret's BIP-39 seed (PBKDF2, 2048 rounds of HMAC-SHA512) is computed
 * once, natively (derive.ts `hdSeedOf`), instead of in JavaScript for every
 * account (~15–40 ms each); the entropy-id check after a rebuild derives
 * Ethereum account 0, which most signatures then reuse, and a warm key
 * (warm-keys.ts) keeps the seed and every account it derived for its window.
 *
 * Every account handed out is a copy the caller wipes, as with
 * `deriveEthereumAccount`. `wipe()` zeroes the secret, the seed and every
 * account kept; a wiped instance refuses to derive (it would derive from
 * zeros).
 *
 * @example
 * const keys = await rebuildWalletKeys(deviceShare, authShare, entropyId)
 * try {
 *   const { privateKey } = keys.ethereum(0)
 *   // … sign, then privateKey.fill(0)
 * } finally {
 *   keys.wipe()
 * }
 */
export class WalletKeys {
  private readonly ethereumAccounts = new Map<number, EthereumAccount>()
  private readonly solanaAccounts = new Map<number, SolanaAccount>()
  private wiped = false

  private constructor(
    private readonly secret: WalletSecret,
    /** The BIP-39 seed of an HD secret; null for an imported key. */
    private readonly seed: Uint8Array | null,
  ) {}

  /** The keys of `secret` (which they own from then on: `wipe()` wipes it). */
  static async of(secret: WalletSecret): Promise<WalletKeys> {
    return new WalletKeys(secret, secret.kind === 'hd' ? await hdSeedOf(secret) : null)
  }

  get isWiped(): boolean {
    return this.wiped
  }

  /** Ethereum wallet `index` (derive.ts `deriveEthereumAccount`): a copy to wipe. */
  ethereum(index: number): EthereumAccount {
    this.assertLive()
    const kept = this.ethereumAccounts.get(index)
    if (kept) return { address: kept.address, privateKey: kept.privateKey.slice() }
    const account = this.seed
      ? deriveEthereumAccountFromSeed(this.seed, index)
      : deriveEthereumAccount(this.secret, index)
    if (this.ethereumAccounts.size < MAX_KEPT_ACCOUNTS)
      this.ethereumAccounts.set(index, {
        address: account.address,
        privateKey: account.privateKey.slice(),
      })
    return account
  }

  /** Solana wallet `index` (derive.ts `deriveSolanaAccount`): a copy to wipe. */
  solana(index: number): SolanaAccount {
    this.assertLive()
    const kept = this.solanaAccounts.get(index)
    if (kept)
      return { address: kept.address, seed: kept.seed.slice(), publicKey: kept.publicKey.slice() }
    const account = this.seed
      ? deriveSolanaAccountFromSeed(this.seed, index)
      : deriveSolanaAccount(this.secret, index)
    if (this.solanaAccounts.size < MAX_KEPT_ACCOUNTS)
      this.solanaAccounts.set(index, {
        address: account.address,
        seed: account.seed.slice(),
        publicKey: account.publicKey.slice(),
      })
    return account
  }

  /** The address of wallet `index` on `chain`. */
  address(chain: ChainType, index: number): string {
    if (chain === 'ethereum') {
      const account = this.ethereum(index)
      account.privateKey.fill(0)
      return account.address
    }
    const account = this.solana(index)
    account.seed.fill(0)
    return account.address
  }

  /** The entropy id, as derive.ts `entropyIdOf` defines it: the Solana address for a Solana key, else Ethereum account 0. */
  entropyId(): string {
    return this.address(this.secret.kind === 'solana-key' ? 'solana' : 'ethereum', 0)
  }

  wipe(): void {
    this.wiped = true
    wipeSecret(this.secret)
    this.seed?.fill(0)
    for (const account of this.ethereumAccounts.values()) account.privateKey.fill(0)
    for (const account of this.solanaAccounts.values()) account.seed.fill(0)
    this.ethereumAccounts.clear()
    this.solanaAccounts.clear()
  }

  private assertLive(): void {
    if (this.wiped) throw new PageError('INTERNAL_ERROR', 'The wallet key was dropped during use')
  }
}

/**
 * Rebuilds the secret from its two shares and checks it is the wallet
 * `expectedEntropyId` names (shares.ts `reconstructAndVerify`), keeping the
 * derivation the check made. A mismatch wipes the secret and throws
 * ENTROPY_ID_MISMATCH: never a fallback.
 */
export async function rebuildWalletKeys(
  deviceShare: Uint8Array,
  authShare: Uint8Array,
  expectedEntropyId: string,
): Promise<WalletKeys> {
  if (typeof expectedEntropyId !== 'string' || expectedEntropyId.length === 0)
    throw new EnclaveError('ENTROPY_ID_MISMATCH', 'An entropy id is required to verify shares')
  const secret = await combineShares(deviceShare, authShare)
  let keys: WalletKeys
  try {
    keys = await WalletKeys.of(secret)
  } catch (error) {
    wipeSecret(secret)
    throw error
  }
  try {
    if (!sameEntropyId(keys.entropyId(), expectedEntropyId))
      throw new EnclaveError('ENTROPY_ID_MISMATCH', 'The shares rebuild a different wallet')
  } catch (error) {
    keys.wipe()
    throw error
  }
  return keys
}
