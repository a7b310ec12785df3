import { parseEnclaveRequest } from '@latchkey/protocol/schemas'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { type Hex, parseTransaction, recoverTransactionAddress } from 'viem'
import { describe, expect, it } from 'vitest'
import { base64urlToBytes, bytesToBase64url } from '../encoding.ts'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST } from './harness.test-helper.ts'

const alice = 'user-alice'
type Wallet = { address: string; chain_type: string; entropy_id: string }

async function walletsOf(chainTypes: string[]) {
  const server = createFakeServer({ appId: APP_ID })
  const h = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST] })
  const answer = await h.request('latchkey:wallets:create', {
    access_token: alice,
    chain_types: chainTypes,
    recovery: { method: 'latchkey' },
  })
  const { linked_accounts } = (answer.message.data as { user: { linked_accounts: Wallet[] } }).user
  const rpc = (chainType: string, request: unknown) =>
    h.request('latchkey:wallets:rpc', {
      access_token: alice,
      entropy_id: linked_accounts[0]?.entropy_id,
      chain_type: chainType,
      wallet_index: 0,
      request,
    })
  const address = (chainType: string) =>
    linked_accounts.find((w) => w.chain_type === chainType)?.address as string
  return { rpc, address, server, entropyId: linked_accounts[0]?.entropy_id as string }
}

const eip1559 = (from: string) => ({
  from,
  chainId: 31337,
  type: 'eip1559',
  to: '0x70997970C51812dc3A010C7d01b50e0d17dc79C8',
  value: '0xde0b6b3a7640000',
  nonce: 7,
  gas: '0x5208',
  maxFeePerGas: '0x77359400',
  maxPriorityFeePerGas: '0x3b9aca00',
})

describe('eth_signTransaction', () => {
  it('signs exactly the confirmed fields: the signer recovers to the wallet (EIP-1559)', async () => {
    const { rpc, address } = await walletsOf(['ethereum'])
    const answer = await rpc('ethereum', {
      method: 'eth_signTransaction',
      params: [eip1559(address('ethereum'))],
    })
    const signed = (answer.message.data as { result: Hex }).result
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(
      address('ethereum'),
    )
    expect(parseTransaction(signed)).toMatchObject({
      type: 'eip1559',
      chainId: 31337,
      nonce: 7,
      gas: 21000n,
      value: 10n ** 18n,
      to: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    })
  })

  it('legacy transactions carry EIP-155 replay protection (v = chainId × 2 + 35/36)', async () => {
    const { rpc, address } = await walletsOf(['ethereum'])
    const { maxFeePerGas: _, maxPriorityFeePerGas: __, ...base } = eip1559(address('ethereum'))
    const answer = await rpc('ethereum', {
      method: 'eth_signTransaction',
      params: [{ ...base, type: 'legacy', gasPrice: '0x3b9aca00', data: '0x' }],
    })
    const signed = (answer.message.data as { result: Hex }).result
    const parsed = parseTransaction(signed)
    expect(parsed.type).toBe('legacy')
    expect([31337n * 2n + 35n, 31337n * 2n + 36n]).toContain(parsed.v)
    expect(await recoverTransactionAddress({ serializedTransaction: signed as never })).toBe(
      address('ethereum'),
    )
  })

  it('refuses a transaction from another address; the schema refuses fee fields that do not match the type', async () => {
    const { rpc, address } = await walletsOf(['ethereum'])
    const other = await rpc('ethereum', {
      method: 'eth_signTransaction',
      params: [eip1559('0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB')],
    })
    expect(other.message.error?.code).toBe('INVALID_PAYLOAD')
    // A request the schema refuses is never handled (the channel drops it unanswered).
    const { maxFeePerGas: _, ...noFee } = eip1559(address('ethereum'))
    const request = (tx: unknown) => ({
      id: '1',
      event: 'latchkey:wallets:rpc',
      data: {
        access_token: alice,
        entropy_id: address('ethereum'),
        chain_type: 'ethereum',
        wallet_index: 0,
        request: { method: 'eth_signTransaction', params: [tx] },
      },
    })
    expect(parseEnclaveRequest(request(noFee))).toBeNull()
    expect(parseEnclaveRequest(request({ ...eip1559(address('ethereum')), value: '1' }))).toBeNull()
    expect(parseEnclaveRequest(request(eip1559(address('ethereum'))))).not.toBeNull()
  })
})

/** A one-instruction transaction (System program, as a transfer would be) paid by `payer`. */
function solanaTransaction(payer: Uint8Array, version: 'legacy' | 0, signers = [payer]) {
  const program = new Uint8Array(32) // the System program is all zeros
  const keys = [...signers, ...(signers.includes(payer) ? [] : [payer]), program]
  const message = [
    ...(version === 0 ? [0x80] : []),
    signers.length,
    0,
    1,
    keys.length,
    ...keys.flatMap((key) => [...key]),
    ...new Uint8Array(32).fill(9), // recent blockhash
    1, // one instruction
    keys.length - 1,
    1,
    0,
    4,
    2,
    0,
    0,
    0,
    ...(version === 0 ? [0] : []), // no address lookup tables
  ]
  return new Uint8Array([signers.length, ...new Uint8Array(64 * signers.length), ...message])
}

describe('Solana signTransaction', () => {
  it.each(['legacy', 0] as const)(
    'signs a %s transaction: the signature in the wallet slot verifies over the message',
    async (version) => {
      const { rpc, address } = await walletsOf(['ethereum', 'solana'])
      const key = base58.decode(address('solana'))
      const wire = solanaTransaction(key, version)
      const answer = await rpc('solana', {
        method: 'signTransaction',
        params: { transaction: bytesToBase64url(wire) },
      })
      const signed = base64urlToBytes((answer.message.data as { result: string }).result)
      expect(signed.subarray(65)).toEqual(wire.subarray(65))
      expect(ed25519.verify(signed.subarray(1, 65), wire.subarray(65), key)).toBe(true)
    },
  )

  it('fills only its own slot when another key signs first', async () => {
    const { rpc, address } = await walletsOf(['ethereum', 'solana'])
    const key = base58.decode(address('solana'))
    const other = ed25519.getPublicKey(ed25519.utils.randomSecretKey())
    const wire = solanaTransaction(key, 'legacy', [other, key])
    const answer = await rpc('solana', {
      method: 'signTransaction',
      params: { transaction: bytesToBase64url(wire) },
    })
    const signed = base64urlToBytes((answer.message.data as { result: string }).result)
    expect(signed.subarray(1, 65)).toEqual(new Uint8Array(64))
    expect(ed25519.verify(signed.subarray(65, 129), wire.subarray(129), key)).toBe(true)
  })

  it('refuses a transaction this wallet does not sign, and a Solana method on Ethereum', async () => {
    const { rpc } = await walletsOf(['ethereum', 'solana'])
    const stranger = ed25519.getPublicKey(ed25519.utils.randomSecretKey())
    const answer = await rpc('solana', {
      method: 'signTransaction',
      params: { transaction: bytesToBase64url(solanaTransaction(stranger, 'legacy')) },
    })
    expect(answer.message.error?.code).toBe('INVALID_PAYLOAD')
    const crossed = await rpc('ethereum', {
      method: 'signTransaction',
      params: { transaction: bytesToBase64url(solanaTransaction(stranger, 'legacy')) },
    })
    expect(crossed.message.error?.code).toBe('UNSUPPORTED_METHOD')
  })
})

describe('a stolen access token cannot sign a transaction (security bar: key routes)', () => {
  it('not from another browser: its enclave holds no device share to rebuild the key with', async () => {
    const { server, address, entropyId } = await walletsOf(['ethereum'])
    const tx = {
      method: 'eth_signTransaction',
      params: [eip1559(address('ethereum'))],
    }
    // The token replayed from another browser: its enclave holds no device share.
    const elsewhere = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST] })
    const stolen = await elsewhere.request('latchkey:wallets:rpc', {
      access_token: alice,
      entropy_id: entropyId,
      chain_type: 'ethereum',
      wallet_index: 0,
      request: tx,
    })
    expect(stolen.message.error?.code).toBe('WALLET_NOT_FOUND')
    expect(stolen.message.data).toBeUndefined()
  })
})
