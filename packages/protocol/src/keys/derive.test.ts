import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, hex } from '@scure/base'
import { HDKey } from '@scure/bip32'
import { mnemonicToSeedSync } from '@scure/bip39'
import fc from 'fast-check'
import { getAddress, type Hex, verifyMessage } from 'viem'
import { mnemonicToAccount, privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import {
  deriveEthereumAccount,
  deriveSolanaAccount,
  entropyIdOf,
  mnemonicOf,
  secretFromMnemonic,
} from './derive.ts'
import { EnclaveError } from './errors.ts'
import { importEthereumKey, importSolanaKey, type WalletSecret } from './secret.ts'

const toHex = (bytes: Uint8Array): Hex => `0x${hex.encode(bytes)}`
const hd = (entropyHex: string): WalletSecret => ({ kind: 'hd', payload: hex.decode(entropyHex) })

const ANVIL = 'test test test test test test test test test test test junk'

// BIP-39 reference vectors (trezor/python-mnemonic vectors.json, 128-bit entropy,
// passphrase "TREZOR").
const BIP39_VECTORS = [
  [
    '00000000000000000000000000000000',
    'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about',
    'c55257c360c07c72029aebc1b53c05ed0362ada38ead3e3e9efa3708e53495531f09a6987599d18264c1e1c92f2cf141630c7a3c4ab7c81b2f001698e7463b04',
  ],
  [
    '7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f7f',
    'legal winner thank year wave sausage worth useful legal winner thank yellow',
    '2e8905819b8723fe2c1d161860e5ee1830318dbf49a83bd451cfb8440c28bd6fa457fe1296106559a3c80937a1c1069be3a3a5bd381ee6260e8d9739fce1f607',
  ],
  [
    '80808080808080808080808080808080',
    'letter advice cage absurd amount doctor acoustic avoid letter advice cage above',
    'd71de856f81a8acc65e6fc851a38d4d7ec216fd0796d0a6827a3ad6ed5511a30fa280f12eb2e47ed2ac03b5c462a0358d18d69fe4f985ec81778c1b370b652a8',
  ],
  [
    'ffffffffffffffffffffffffffffffff',
    'zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo zoo wrong',
    'ac27495480225222079d7be181583751e86f571027b0497b5b5d11218e0a8a13332572917f0f8e5a589620c6f15b11c61dee327651a14c34e18231052e48c069',
  ],
  [
    '9e885d952ad362caeb4efe34a8e91bd2',
    'ozone drill grab fiber curtain grace pudding thank cruise elder eight picnic',
    '274ddc525802f7c828d8ef7ddbcdc5304e87ac3535913611fbbfa986d0c9e5476c91689f9c8a54fd55bd38606aa6a8595ad213d4c9c9f9aca3fb217069a41028',
  ],
] as const

describe('BIP-39 reference vectors', () => {
  it.each(BIP39_VECTORS)('%s ↔ phrase and TREZOR seed', (entropy, phrase, seed) => {
    expect(mnemonicOf(hd(entropy))).toBe(phrase)
    expect(hex.encode(secretFromMnemonic(phrase).payload)).toBe(entropy)
    expect(hex.encode(mnemonicToSeedSync(phrase, 'TREZOR'))).toBe(seed)
  })
})

describe('BIP-32 test vector 1 (seed 000102030405060708090a0b0c0d0e0f)', () => {
  // The library derive.ts uses for Ethereum keys, checked against the BIP's own vector.
  const root = HDKey.fromMasterSeed(hex.decode('000102030405060708090a0b0c0d0e0f'))
  it.each([
    [
      'm',
      'xprv9s21ZrQH143K3QTDL4LXw2F7HEK3wJUD2nW2nRk4stbPy6cq3jPPqjiChkVvvNKmPGJxWUtg6LnF5kejMRNNU3TGtRBeJgk33yuGBxrMPHi',
      'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8',
    ],
    [
      "m/0'",
      'xprv9uHRZZhk6KAJC1avXpDAp4MDc3sQKNxDiPvvkX8Br5ngLNv1TxvUxt4cV1rGL5hj6KCesnDYUhd7oWgT11eZG7XnxHrnYeSvkzY7d2bhkJ7',
      'xpub68Gmy5EdvgibQVfPdqkBBCHxA5htiqg55crXYuXoQRKfDBFA1WEjWgP6LHhwBZeNK1VTsfTFUHCdrfp1bgwQ9xv5ski8PX9rL2dZXvgGDnw',
    ],
    [
      "m/0'/1",
      'xprv9wTYmMFdV23N2TdNG573QoEsfRrWKQgWeibmLntzniatZvR9BmLnvSxqu53Kw1UmYPxLgboyZQaXwTCg8MSY3H2EU4pWcQDnRnrVA1xe8fs',
      'xpub6ASuArnXKPbfEwhqN6e3mwBcDTgzisQN1wXN9BJcM47sSikHjJf3UFHKkNAWbWMiGj7Wf5uMash7SyYq527Hqck2AxYysAA7xmALppuCkwQ',
    ],
  ])('%s', (path, xprv, xpub) => {
    const node = root.derive(path)
    expect(node.privateExtendedKey).toBe(xprv)
    expect(node.publicExtendedKey).toBe(xpub)
  })

  it("m/0'/1 private key", () => {
    expect(hex.encode(root.derive("m/0'/1").privateKey as Uint8Array)).toBe(
      '3c6cb8d0f6a264c91ea8b5030fadaa8e538b020f0a387421a12de9319dc93368',
    )
  })
})

describe('Ethereum accounts', () => {
  it('"test … junk" index 0 is Anvil\'s first account', () => {
    const account = deriveEthereumAccount(secretFromMnemonic(ANVIL), 0)
    expect(account.address).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(toHex(account.privateKey)).toBe(
      '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    )
    expect(deriveEthereumAccount(secretFromMnemonic(ANVIL), 1).address).toBe(
      '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
    )
    expect(entropyIdOf(secretFromMnemonic(ANVIL))).toBe(
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    )
  })

  it("matches viem's mnemonicToAccount for random phrases and indexes", () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 16, maxLength: 16 }),
        fc.integer({ min: 0, max: 1_000 }),
        (entropy, index) => {
          const secret: WalletSecret = { kind: 'hd', payload: entropy }
          const ours = deriveEthereumAccount(secret, index)
          const viem = mnemonicToAccount(mnemonicOf(secret), { addressIndex: index })
          expect(ours.address).toBe(viem.address)
          expect(getAddress(ours.address)).toBe(ours.address) // EIP-55 checksum form
          expect(privateKeyToAccount(toHex(ours.privateKey)).address).toBe(viem.address)
        },
      ),
      { numRuns: 25 },
    )
  })

  it('an imported key is used directly at index 0 and is its own entropy id', () => {
    const secret = importEthereumKey(
      '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    )
    expect(deriveEthereumAccount(secret, 0).address).toBe(
      '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    )
    expect(entropyIdOf(secret)).toBe('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
    expect(() => deriveEthereumAccount(secret, 1)).toThrow(
      expect.objectContaining({ code: 'INVALID_INDEX' }),
    )
    expect(() => deriveSolanaAccount(secret, 0)).toThrow(
      expect.objectContaining({ code: 'CHAIN_MISMATCH' }),
    )
  })

  it('a derived key signs a message that viem verifies for the derived address', async () => {
    const { address, privateKey } = deriveEthereumAccount(secretFromMnemonic(ANVIL), 3)
    const message = 'Sign in to Latchkey'
    const signature = await privateKeyToAccount(toHex(privateKey)).signMessage({ message })
    expect(await verifyMessage({ address, message, signature })).toBe(true)
    const other = deriveEthereumAccount(secretFromMnemonic(ANVIL), 4).address
    expect(await verifyMessage({ address: other, message, signature })).toBe(false)
  })
})

describe('Solana accounts', () => {
  it("abandon … about index 0 is the address Phantom shows (m/44'/501'/0'/0')", () => {
    const phrase = BIP39_VECTORS[0][1]
    const account = deriveSolanaAccount(secretFromMnemonic(phrase), 0)
    expect(account.address).toBe('HAgk14JpMQLgt6rVgv7cBQFJWFto5Dqxi472uT3DKpqk')
    expect(base58.decode(account.address)).toEqual(account.publicKey)
    expect(ed25519.getPublicKey(account.seed)).toEqual(account.publicKey)
  })

  it('different indexes give different accounts', () => {
    const secret = secretFromMnemonic(ANVIL)
    const addresses = [0, 1, 2].map((i) => deriveSolanaAccount(secret, i).address)
    expect(new Set(addresses).size).toBe(3)
  })

  it('a derived seed signs with ed25519 and verifies with the key from the base58 address', () => {
    const { address, seed } = deriveSolanaAccount(secretFromMnemonic(ANVIL), 0)
    const message = new TextEncoder().encode('Sign in to Latchkey')
    const signature = ed25519.sign(message, seed)
    expect(ed25519.verify(signature, message, base58.decode(address))).toBe(true)
    expect(
      ed25519.verify(signature, new TextEncoder().encode('other'), base58.decode(address)),
    ).toBe(false)
  })

  it('an imported Solana key is used directly and is its own entropy id', () => {
    const seed = new Uint8Array(32).fill(7)
    const publicKey = ed25519.getPublicKey(seed)
    const secret = importSolanaKey(seed)
    const account = deriveSolanaAccount(secret, 0)
    expect(account.publicKey).toEqual(publicKey)
    expect(entropyIdOf(secret)).toBe(base58.encode(publicKey))
    expect(() => deriveSolanaAccount(secret, 1)).toThrow(
      expect.objectContaining({ code: 'INVALID_INDEX' }),
    )
    expect(() => deriveEthereumAccount(secret, 0)).toThrow(
      expect.objectContaining({ code: 'CHAIN_MISMATCH' }),
    )
  })
})

describe('phrases and indexes', () => {
  it('forgives case and spacing, refuses bad words, checksums and lengths', () => {
    expect(secretFromMnemonic(`  ${ANVIL.toUpperCase().replaceAll(' ', '  \n')} `)).toEqual(
      secretFromMnemonic(ANVIL),
    )
    for (const bad of [
      'test test test test test test test test test test test test', // checksum
      'test test test test test test test test test test test junkk', // word
      BIP39_VECTORS[0][1].replace(' about', ''), // 11 words
      'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon art', // 24
      '',
    ]) {
      expect(() => secretFromMnemonic(bad)).toThrow(EnclaveError)
      expect(() => secretFromMnemonic(bad)).toThrow(
        expect.objectContaining({ code: 'INVALID_MNEMONIC' }),
      )
    }
  })

  it('refuses a phrase for an imported key', () => {
    expect(() => mnemonicOf(importSolanaKey(new Uint8Array(32)))).toThrow(
      expect.objectContaining({ code: 'INVALID_SECRET' }),
    )
  })

  it('refuses indexes that are not integers in [0, 2^31)', () => {
    const secret = secretFromMnemonic(ANVIL)
    for (const index of [-1, 1.5, Number.NaN, 2 ** 31, Number.POSITIVE_INFINITY]) {
      expect(() => deriveEthereumAccount(secret, index)).toThrow(
        expect.objectContaining({ code: 'INVALID_INDEX' }),
      )
      expect(() => deriveSolanaAccount(secret, index)).toThrow(
        expect.objectContaining({ code: 'INVALID_INDEX' }),
      )
    }
  })
})
