import { parseEnclaveRequest } from '@latchkey/protocol/schemas'
import type { Hex } from 'viem'
import { parseSignature } from 'viem'
import { recoverAuthorizationAddress, verifyAuthorization } from 'viem/utils'
import { describe, expect, it } from 'vitest'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST } from './harness.test-helper.ts'
import { SIMPLE_7702_ACCOUNT } from './sign.ts'

// EIP-7702 `eth_signAuthorization` (docs/smart-wallets.md): the enclave hashes
// the authorization itself, so a `simple_7702` smart wallet's upgrade is signed
// without any raw-digest signing method.

const alice = 'user-alice'

async function ethereumWallet() {
  const server = createFakeServer({ appId: APP_ID })
  const h = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST] })
  const answer = await h.request('latchkey:wallets:create', {
    access_token: alice,
    chain_types: ['ethereum', 'solana'],
    recovery: { method: 'latchkey' },
  })
  const { linked_accounts } = (
    answer.message.data as {
      user: { linked_accounts: { address: string; chain_type: string; entropy_id: string }[] }
    }
  ).user
  const wallet = linked_accounts.find((w) => w.chain_type === 'ethereum')
  if (!wallet) throw new Error('no Ethereum wallet was created')
  const data = (request: unknown, chainType = 'ethereum') => ({
    access_token: alice,
    entropy_id: wallet.entropy_id,
    chain_type: chainType,
    wallet_index: 0,
    request,
  })
  const rpc = (request: unknown, chainType?: string) =>
    h.request('latchkey:wallets:rpc', data(request, chainType))
  return { rpc, data, address: wallet.address as Hex }
}

const authorize = (fields: Record<string, unknown>) => ({
  method: 'eth_signAuthorization',
  params: [fields],
})

describe('eth_signAuthorization', () => {
  it('signs the EIP-7702 authorization: it recovers to the wallet and verifies', async () => {
    const { rpc, address } = await ethereumWallet()
    const authorization = { chainId: 31337, address: SIMPLE_7702_ACCOUNT, nonce: 3 } as const
    const answer = await rpc(authorize(authorization))
    const signature = (answer.message.data as { result: Hex }).result
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
    expect(await recoverAuthorizationAddress({ authorization, signature })).toBe(address)
    const signed = { ...authorization, ...parseSignature(signature) }
    expect(await verifyAuthorization({ address, authorization: signed })).toBe(true)
    // Each field is in the digest: another nonce or chain recovers to someone else.
    for (const changed of [
      { ...authorization, nonce: 4 },
      { ...authorization, chainId: 1 },
    ])
      expect(await recoverAuthorizationAddress({ authorization: changed, signature })).not.toBe(
        address,
      )
  })

  it('refuses malformed params before any handler runs', async () => {
    const { data } = await ethereumWallet()
    const parse = (request: unknown) =>
      parseEnclaveRequest({ id: '1', event: 'latchkey:wallets:rpc', data: data(request) })
    const good = { chainId: 31337, address: SIMPLE_7702_ACCOUNT, nonce: 0 }
    expect(parse(authorize(good))).not.toBeNull()
    for (const bad of [
      { ...good, chainId: 0 }, // valid on every chain (EIP-7702)
      { ...good, chainId: '31337' },
      { ...good, chainId: 1.5 },
      { ...good, nonce: -1 },
      { ...good, nonce: 2 ** 60 },
      { ...good, address: '0x1234' },
      { chainId: 31337, address: SIMPLE_7702_ACCOUNT },
    ])
      expect(parse(authorize(bad))).toBeNull()
    expect(parse({ method: 'eth_signAuthorization', params: [] })).toBeNull()
    expect(parse({ method: 'eth_signAuthorization', params: [good, good] })).toBeNull()
    // A 32-byte digest is not an authorization: there is no raw-hash method to sign one with.
    expect(parse({ method: 'eth_sign', params: [`0x${'11'.repeat(32)}`] })).toBeNull()
  })

  it('is an Ethereum method: a Solana wallet refuses it', async () => {
    const { rpc } = await ethereumWallet()
    const answer = await rpc(
      authorize({ chainId: 31337, address: SIMPLE_7702_ACCOUNT, nonce: 0 }),
      'solana',
    )
    expect(answer.message.error?.code).toBe('UNSUPPORTED_METHOD')
  })
})
