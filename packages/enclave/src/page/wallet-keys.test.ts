import {
  deriveEthereumAccount,
  deriveSolanaAccount,
  entropyIdOf,
  generateHdSecret,
  hdSeedOf,
  importEthereumKey,
  importSolanaKey,
  splitSecret,
  type WalletSecret,
} from '@latchkey/protocol/keys'
import { bytesToHex } from '@noble/hashes/utils.js'
import { describe, expect, it } from 'vitest'
import { rebuildWalletKeys, WalletKeys } from './wallet-keys.ts'

const copy = (s: WalletSecret): WalletSecret => ({ kind: s.kind, payload: s.payload.slice() })
const secrets = () => [
  generateHdSecret(),
  importEthereumKey(`0x${'11'.repeat(32)}`),
  importSolanaKey(new Uint8Array(32).fill(5)),
]

describe('hdSeedOf (WebCrypto PBKDF2)', () => {
  it("is BIP-39's seed: 'abandon … about', empty passphrase", async () => {
    const seed = await hdSeedOf({ kind: 'hd', payload: new Uint8Array(16) })
    expect(bytesToHex(seed)).toBe(
      '5eb00bbddcf069084889a8ab9155568165f5c453ccb85e70811aaed6f6da5fc19a5ac40b389cd370d086206dec8aa6c43daea6690f20ad3d8d48b2d2ce9e38e4',
    )
  })
})

describe('WalletKeys', () => {
  it("derives what derive.ts derives, with derive.ts's entropy id, for every kind", async () => {
    for (const secret of secrets()) {
      const keys = await WalletKeys.of(copy(secret))
      expect(keys.entropyId()).toBe(entropyIdOf(secret))
      if (secret.kind !== 'solana-key')
        expect(keys.ethereum(0)).toEqual(deriveEthereumAccount(secret, 0))
      if (secret.kind !== 'ethereum-key')
        expect(keys.solana(0)).toEqual(deriveSolanaAccount(secret, 0))
    }
  })

  it('hands out copies: wiping one leaves the kept account intact', async () => {
    const secret = generateHdSecret()
    const keys = await WalletKeys.of(copy(secret))
    const first = keys.ethereum(3)
    first.privateKey.fill(0)
    expect(keys.ethereum(3)).toEqual(deriveEthereumAccount(secret, 3))
    const sol = keys.solana(1)
    sol.seed.fill(0)
    expect(keys.solana(1)).toEqual(deriveSolanaAccount(secret, 1))
  })

  it('wipe zeroes the secret and refuses to derive afterwards', async () => {
    const secret = generateHdSecret()
    const inner = copy(secret)
    const keys = await WalletKeys.of(inner)
    keys.ethereum(0)
    keys.wipe()
    expect(inner.payload.every((b) => b === 0)).toBe(true)
    expect(keys.isWiped).toBe(true)
    expect(() => keys.ethereum(0)).toThrow(/dropped/)
  })
})

describe('rebuildWalletKeys', () => {
  it('rebuilds the wallet its entropy id names, and refuses another', async () => {
    const secret = generateHdSecret()
    const { deviceShare, authShare } = await splitSecret(secret)
    const keys = await rebuildWalletKeys(deviceShare, authShare, entropyIdOf(secret).toLowerCase())
    expect(keys.ethereum(0)).toEqual(deriveEthereumAccount(secret, 0))
    const other = entropyIdOf(generateHdSecret())
    await expect(rebuildWalletKeys(deviceShare, authShare, other)).rejects.toMatchObject({
      code: 'ENTROPY_ID_MISMATCH',
    })
    await expect(rebuildWalletKeys(deviceShare, authShare, '')).rejects.toMatchObject({
      code: 'ENTROPY_ID_MISMATCH',
    })
  })
})
