import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { HDKey } from '@scure/bip32'
import {
  entropyToMnemonic,
  mnemonicToEntropy,
  mnemonicToSeedSync,
  validateMnemonic,
} from '@scure/bip39'
import { wordlist } from '@scure/bip39/wordlists/english.js'
import { type EthereumAddress, ethereumAddressOfPrivateKey } from './address.ts'
import { EnclaveError } from './errors.ts'
import { assertValidSecret, type SecretKind, type WalletSecret } from './secret.ts'
import { deriveSlip10Ed25519 } from './slip10.ts'

/** An Ethereum account of a secret. `privateKey` is 32 bytes; wipe it after use. */
export type EthereumAccount = { address: EthereumAddress; privateKey: Uint8Array }

/**
 * A Solana account of a secret. `seed` is the 32-byte ed25519 private seed
 * (wipe it after use); `publicKey` is 32 bytes; `address` is its base58.
 */
export type SolanaAccount = { address: string; seed: Uint8Array; publicKey: Uint8Array }

/** The BIP-44 path of Ethereum wallet `index` (the path MetaMask and most wallets use). */
export const ethereumPath = (index: number) => `m/44'/60'/0'/0/${index}`
/** The BIP-44 path of Solana wallet `index` (the path Phantom and Solflare use). */
export const solanaPath = (index: number) => `m/44'/501'/${index}'/0'`

function assertIndex(kind: SecretKind, index: number): void {
  if (!Number.isInteger(index) || index < 0 || index >= 0x8000_0000) {
    throw new EnclaveError('INVALID_INDEX', 'A wallet index is an integer in [0, 2^31)')
  }
  if (kind !== 'hd' && index !== 0) {
    throw new EnclaveError('INVALID_INDEX', 'An imported key has only wallet index 0')
  }
}

/** The BIP-39 seed of an HD secret (no passphrase, so the phrase restores elsewhere). */
function seedOf(secret: WalletSecret): Uint8Array {
  return mnemonicToSeedSync(entropyToMnemonic(secret.payload, wordlist), '')
}

/**
 * The same BIP-39 seed through WebCrypto's native PBKDF2 (BIP-39: 2048
 * rounds of HMAC-SHA512 over the phrase, salt "mnemonic" + empty
 * passphrase): ~1 ms where the JavaScript PBKDF2 takes ~15–40 ms. Falls
 * back to the JavaScript one without WebCrypto. Wipe it after use.
 *
 * @example
 * ```ts
 * const seed = await hdSeedOf(secret)
 * deriveEthereumAccountFromSeed(seed, 0).address === deriveEthereumAccount(secret, 0).address
 * ```
 */
export async function hdSeedOf(secret: WalletSecret): Promise<Uint8Array> {
  assertValidSecret(secret)
  if (secret.kind !== 'hd') throw new EnclaveError('INVALID_SECRET', 'An imported key has no seed')
  const subtle = globalThis.crypto?.subtle
  if (!subtle) return seedOf(secret)
  // The phrase's English words are ASCII: NFKD leaves them as they are.
  const phrase = new TextEncoder().encode(entropyToMnemonic(secret.payload, wordlist))
  try {
    const key = await subtle.importKey('raw', phrase, 'PBKDF2', false, ['deriveBits'])
    const bits = await subtle.deriveBits(
      {
        name: 'PBKDF2',
        hash: 'SHA-512',
        salt: new TextEncoder().encode('mnemonic'),
        iterations: 2048,
      },
      key,
      512,
    )
    return new Uint8Array(bits)
  } finally {
    phrase.fill(0)
  }
}

/** Ethereum wallet `index` of an HD secret's BIP-39 seed (BIP-32 secp256k1 at `m/44'/60'/0'/0/{index}`). */
export function deriveEthereumAccountFromSeed(seed: Uint8Array, index: number): EthereumAccount {
  assertIndex('hd', index)
  const root = HDKey.fromMasterSeed(seed)
  const node = root.derive(ethereumPath(index))
  if (!node.privateKey) throw new EnclaveError('INVALID_SECRET', 'Derivation gave no key')
  const privateKey = node.privateKey.slice()
  node.wipePrivateData()
  root.wipePrivateData()
  return { address: ethereumAddressOfPrivateKey(privateKey), privateKey }
}

/** Solana wallet `index` of an HD secret's BIP-39 seed (SLIP-10 ed25519 at `m/44'/501'/{index}'/0'`). */
export function deriveSolanaAccountFromSeed(seed: Uint8Array, index: number): SolanaAccount {
  assertIndex('hd', index)
  const node = deriveSlip10Ed25519(seed, solanaPath(index))
  node.chainCode.fill(0)
  return {
    address: base58.encode(node.publicKey),
    seed: node.privateKey,
    publicKey: node.publicKey,
  }
}

/**
 * Derives Ethereum wallet `index` of a secret: BIP-32 secp256k1 at
 * `m/44'/60'/0'/0/{index}` for HD secrets; an imported Ethereum key is used
 * directly (index 0 only). A Solana key has no Ethereum account
 * (`CHAIN_MISMATCH`).
 *
 * @example
 * ```ts
 * const { address, privateKey } = deriveEthereumAccount(secret, 0)
 * // address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' for "test … junk"
 * ```
 */
export function deriveEthereumAccount(secret: WalletSecret, index: number): EthereumAccount {
  assertValidSecret(secret)
  assertIndex(secret.kind, index)
  if (secret.kind === 'solana-key') {
    throw new EnclaveError('CHAIN_MISMATCH', 'An imported Solana key has no Ethereum account')
  }
  if (secret.kind === 'ethereum-key') {
    const privateKey = secret.payload.slice()
    return { address: ethereumAddressOfPrivateKey(privateKey), privateKey }
  }
  const seed = seedOf(secret)
  try {
    return deriveEthereumAccountFromSeed(seed, index)
  } finally {
    seed.fill(0)
  }
}

/**
 * Derives Solana wallet `index` of a secret: SLIP-10 ed25519 at
 * `m/44'/501'/{index}'/0'` for HD secrets; an imported Solana seed is used
 * directly (index 0 only). An Ethereum key has no Solana account
 * (`CHAIN_MISMATCH`).
 *
 * @example
 * ```ts
 * const { address, seed } = deriveSolanaAccount(secret, 0)
 * ed25519.sign(message, seed)
 * ```
 */
export function deriveSolanaAccount(secret: WalletSecret, index: number): SolanaAccount {
  assertValidSecret(secret)
  assertIndex(secret.kind, index)
  if (secret.kind === 'ethereum-key') {
    throw new EnclaveError('CHAIN_MISMATCH', 'An imported Ethereum key has no Solana account')
  }
  if (secret.kind === 'solana-key') {
    const seed = secret.payload.slice()
    const publicKey = ed25519.getPublicKey(seed)
    return { address: base58.encode(publicKey), seed, publicKey }
  }
  const bip39Seed = seedOf(secret)
  try {
    return deriveSolanaAccountFromSeed(bip39Seed, index)
  } finally {
    bip39Seed.fill(0)
  }
}

/**
 * The 12-word BIP-39 English phrase of an HD secret (for export, shown only in
 * the enclave's own page). Imported keys have no phrase (`INVALID_SECRET`).
 *
 * @example
 * ```ts
 * mnemonicOf({ kind: 'hd', payload: new Uint8Array(16) }) // 'abandon abandon … about'
 * ```
 */
export function mnemonicOf(secret: WalletSecret): string {
  assertValidSecret(secret)
  if (secret.kind !== 'hd') {
    throw new EnclaveError('INVALID_SECRET', 'An imported key has no recovery phrase')
  }
  return entropyToMnemonic(secret.payload, wordlist)
}

/**
 * Rebuilds an HD secret from a 12-word BIP-39 English phrase. Letter case and
 * extra whitespace are forgiven; a wrong word, a wrong checksum or another
 * length is `INVALID_MNEMONIC`.
 *
 * @example
 * ```ts
 * const secret = secretFromMnemonic('test test test test test test test test test test test junk')
 * ```
 */
export function secretFromMnemonic(phrase: string): WalletSecret {
  if (typeof phrase !== 'string') {
    throw new EnclaveError('INVALID_MNEMONIC', 'A recovery phrase is a string')
  }
  const words = phrase.normalize('NFKD').trim().toLowerCase().split(/\s+/)
  const normalized = words.join(' ')
  if (words.length !== 12 || !validateMnemonic(normalized, wordlist)) {
    throw new EnclaveError('INVALID_MNEMONIC', 'Expected a valid 12-word recovery phrase')
  }
  return { kind: 'hd', payload: mnemonicToEntropy(normalized, wordlist) }
}

/**
 * The secret's entropy id, its first address: the index-0 Ethereum address
 * for HD secrets and Ethereum keys, the Solana address for Solana keys. The
 * enclave re-derives it after every reconstruction and refuses a mismatch.
 *
 * @example
 * ```ts
 * entropyIdOf(secretFromMnemonic('test … junk')) // '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
 * ```
 */
export function entropyIdOf(secret: WalletSecret): string {
  assertValidSecret(secret)
  if (secret.kind === 'solana-key') {
    const account = deriveSolanaAccount(secret, 0)
    account.seed.fill(0)
    return account.address
  }
  const account = deriveEthereumAccount(secret, 0)
  account.privateKey.fill(0)
  return account.address
}
