// @vitest-environment node
import { ed25519 } from '@noble/curves/ed25519.js'
import { decodeJWT, verifyJWT } from '@walletconnect/relay-auth'
import * as wcUtils from '@walletconnect/utils'
import { describe, expect, it } from 'vitest'
import {
  bytesToHex,
  decrypt,
  deriveSymKey,
  encrypt,
  generateKeyPair,
  randomHex32,
  topicOf,
} from './crypto.ts'
import { pairingUri } from './protocol.ts'
import { didKey, signRelayJwt } from './relay-auth.ts'

// Our WalletConnect crypto against @walletconnect/utils and
// @walletconnect/relay-auth, the functions the real wallets run.

describe('envelopes', () => {
  it('type 0: what we seal, WalletConnect opens; what it seals, we open', () => {
    const symKey = randomHex32()
    const message = JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'wc_sessionPing', params: {} })
    expect(wcUtils.decrypt({ symKey, encoded: encrypt(symKey, message) })).toBe(message)
    expect(decrypt(wcUtils.encrypt({ symKey, message }), { symKey })).toBe(message)
  })

  it("type 1: WalletConnect's envelope with its sender key opens with our private key", () => {
    const ours = generateKeyPair()
    const theirs = wcUtils.generateKeyPair()
    const symKey = wcUtils.deriveSymKey(theirs.privateKey, ours.publicKey)
    const encoded = wcUtils.encrypt({
      type: 1,
      symKey,
      message: 'hello',
      senderPublicKey: theirs.publicKey,
    })
    expect(decrypt(encoded, { symKey: randomHex32(), privateKey: ours.privateKey })).toBe('hello')
  })

  it('an altered envelope or a wrong key fails the Poly1305 tag', () => {
    const symKey = randomHex32()
    const encoded = wcUtils.encrypt({ symKey, message: 'hello' })
    const bytes = Buffer.from(encoded, 'base64')
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1
    expect(() => decrypt(bytes.toString('base64'), { symKey })).toThrow()
    expect(() => decrypt(encoded, { symKey: randomHex32() })).toThrow()
  })
})

describe('keys and topics', () => {
  it('derives the same session key and topic as deriveSymKey / hashKey', () => {
    const dapp = generateKeyPair()
    const wallet = wcUtils.generateKeyPair()
    const ours = deriveSymKey(dapp.privateKey, wallet.publicKey)
    expect(ours).toBe(wcUtils.deriveSymKey(wallet.privateKey, dapp.publicKey))
    expect(ours).toBe(wcUtils.deriveSymKey(dapp.privateKey, wallet.publicKey))
    expect(topicOf(ours)).toBe(wcUtils.hashKey(ours))
  })

  it('the pairing URI is what formatUri writes and parseUri reads', () => {
    const symKey = randomHex32()
    const topic = topicOf(symKey)
    const uri = pairingUri(topic, symKey, 1_900_000_000)
    expect(uri).toBe(
      wcUtils.formatUri({
        protocol: 'wc',
        version: 2,
        topic,
        symKey,
        relay: { protocol: 'irn' },
        expiryTimestamp: 1_900_000_000,
      }),
    )
    expect(wcUtils.parseUri(uri)).toMatchObject({
      version: 2,
      topic,
      symKey,
      relay: { protocol: 'irn' },
      expiryTimestamp: 1_900_000_000,
    })
  })
})

describe('relay JWT', () => {
  it("verifies with relay-auth's verifyJWT and names the client's did:key", async () => {
    const seed = ed25519.utils.randomSecretKey()
    const jwt = signRelayJwt(seed, 'wss://relay.walletconnect.org', 1_800_000_000)
    expect(await verifyJWT(jwt)).toBe(true)
    const { header, payload } = decodeJWT(jwt)
    expect(header).toEqual({ alg: 'EdDSA', typ: 'JWT' })
    expect(payload).toMatchObject({
      iss: didKey(ed25519.getPublicKey(seed)),
      aud: 'wss://relay.walletconnect.org',
      iat: 1_800_000_000,
      exp: 1_800_000_000 + 86_400,
    })
    expect(payload.sub).toMatch(/^[0-9a-f]{64}$/)
    expect(payload.iss).toMatch(/^did:key:z6Mk/)
  })

  it('a JWT signed by another key does not verify', async () => {
    const jwt = signRelayJwt(ed25519.utils.randomSecretKey(), 'wss://relay.example')
    const [header, payload] = jwt.split('.')
    const forged = ed25519.sign(
      new TextEncoder().encode(`${header}.${payload}`),
      ed25519.utils.randomSecretKey(),
    )
    const signature = Buffer.from(forged).toString('base64url')
    expect(await verifyJWT(`${header}.${payload}.${signature}`)).toBe(false)
    expect(bytesToHex(forged)).toHaveLength(128)
  })
})
