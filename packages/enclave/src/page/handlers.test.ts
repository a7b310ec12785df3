import { routes } from '@latchkey/protocol/routes'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { verifyMessage, verifyTypedData } from 'viem'
import { describe, expect, it } from 'vitest'
import { base64urlToBytes, bytesToBase64url } from '../encoding.ts'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST } from './harness.test-helper.ts'
import { MemoryDeviceShareStore, shareKey } from './store.ts'

const alice = 'user-alice'

function setup() {
  const server = createFakeServer({ appId: APP_ID })
  const harness = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST] })
  return { server, ...harness }
}

type Wallet = {
  address: string
  chain_type: string
  entropy_id: string
  wallet_index: number | null
}

async function create(
  h: ReturnType<typeof setup>,
  chainTypes: string[] = ['ethereum'],
  recovery: unknown = { method: 'latchkey' },
) {
  const answer = await h.request('latchkey:wallets:create', {
    access_token: alice,
    chain_types: chainTypes,
    recovery,
  })
  expect(answer.message.event).toBe('latchkey:wallets:create:result')
  const user = (answer.message.data as { user: { linked_accounts: Wallet[] } }).user
  return {
    user,
    wallets: user.linked_accounts,
    entropyId: user.linked_accounts[0]?.entropy_id as string,
  }
}

describe('create', () => {
  it('stores the shares on the server, then the device share here, and answers the user', async () => {
    const h = setup()
    const { wallets, entropyId } = await create(h, ['solana', 'ethereum'])
    expect(wallets.map((w) => [w.chain_type, w.wallet_index])).toEqual([
      ['ethereum', 0],
      ['solana', 0],
    ])
    // The entropy id is the index-0 Ethereum address.
    expect(entropyId).toBe(wallets[0]?.address)
    const createCall = h.server.calls.find((c) => c.path === routes.embeddedWalletsCreate)
    expect(createCall?.headers.authorization).toBe(`Bearer ${alice}`)
    expect(createCall?.headers['latchkey-app-id']).toBe(APP_ID)
    expect(createCall?.body).toMatchObject({ entropy_type: 'hd', recovery: { method: 'latchkey' } })
    const record = await h.store.get(APP_ID, entropyId)
    expect(record?.recoveryMethod).toBe('latchkey')
    // The device share is not the auth share the server holds.
    const stored = h.server.secrets.get(entropyId.toLowerCase())
    expect(bytesToBase64url(record?.deviceShare as Uint8Array)).not.toBe(stored?.authShare)
    expect([...h.store.records.keys()]).toEqual([shareKey(APP_ID, entropyId)])
  })

  it('writes the device share only once the server has answered 200', async () => {
    const server = createFakeServer({ appId: APP_ID })
    const seen: boolean[] = []
    const store = new MemoryDeviceShareStore()
    const put = store.put.bind(store)
    store.put = async (record) => {
      // The server already holds this secret's shares when the device share is written.
      seen.push(server.secrets.has(record.entropyId.toLowerCase()))
      await put(record)
    }
    const h = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST], store })
    const answer = await h.request('latchkey:wallets:create', {
      access_token: alice,
      chain_types: ['ethereum'],
      recovery: { method: 'latchkey' },
    })
    expect(answer.message.event).toBe('latchkey:wallets:create:result')
    expect(seen).toEqual([true])
  })

  it.each([
    ['a server error', { status: 400, body: { code: 'WALLET_ALREADY_EXISTS', message: 'exists' } }],
    ['a 500', { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' } }],
    ['a network failure', 'network' as const],
  ])('stores nothing and answers an error on %s', async (_name, failure) => {
    const h = setup()
    h.server.failNext(routes.embeddedWalletsCreate, failure)
    const answer = await h.request('latchkey:wallets:create', {
      access_token: alice,
      chain_types: ['ethereum'],
      recovery: { method: 'latchkey' },
    })
    expect(answer.targetOrigin).toBe(HOST)
    expect(answer.message.event).toBe('latchkey:wallets:create:error')
    // Spec 02 §8: a failure the server does not name is 'User wallet creation failed'.
    const expected =
      failure === 'network'
        ? 'NETWORK_ERROR'
        : failure.status === 500
          ? 'USER_WALLET_CREATION_FAILED'
          : (failure.body.code as string)
    expect(answer.message.error?.code).toBe(expected)
    expect(h.store.records.size).toBe(0)
  })

  it('stores nothing when the session is not valid', async () => {
    const h = setup()
    const answer = await h.request('latchkey:wallets:create', {
      access_token: 'not-a-session',
      chain_types: ['ethereum'],
      recovery: { method: 'latchkey' },
    })
    expect(answer.message.error?.code).toBe('UNAUTHORIZED')
    expect(h.store.records.size).toBe(0)
  })
})

describe('connect', () => {
  it('is ready where the device share is, and needs recovery elsewhere', async () => {
    const h = setup()
    const { entropyId } = await create(h)
    const here = await h.request('latchkey:wallets:connect', {
      access_token: alice,
      entropy_id: entropyId,
    })
    expect(here.message.data).toEqual({
      entropy_id: entropyId,
      status: 'ready',
      recovery_method: 'latchkey',
    })

    // Another device: same server, empty store.
    const other = createHarness({ fetch: h.server.fetch, ancestorOrigins: [HOST] })
    const there = await other.request('latchkey:wallets:connect', {
      access_token: alice,
      entropy_id: entropyId,
    })
    expect(there.message.data).toEqual({
      entropy_id: entropyId,
      status: 'needs-recovery',
      recovery_method: 'latchkey',
    })
  })

  it('answers WALLET_NOT_FOUND for a wallet the user does not have', async () => {
    const h = setup()
    const answer = await h.request('latchkey:wallets:connect', {
      access_token: alice,
      entropy_id: '0x0000000000000000000000000000000000000001',
    })
    expect(answer.message.error?.code).toBe('WALLET_NOT_FOUND')
  })
})

describe('rpc', () => {
  it('personal_sign: a signature viem verifies for the wallet address (text and hex)', async () => {
    const h = setup()
    const { wallets, entropyId } = await create(h)
    const address = wallets[0]?.address as `0x${string}`
    for (const [message, check] of [
      ['hello latchkey', 'hello latchkey'],
      ['0x68656c6c6f', { raw: '0x68656c6c6f' as const }],
    ] as const) {
      const answer = await h.request('latchkey:wallets:rpc', {
        access_token: alice,
        entropy_id: entropyId,
        chain_type: 'ethereum',
        wallet_index: 0,
        request: { method: 'personal_sign', params: [message, address] },
      })
      const signature = (answer.message.data as { result: `0x${string}` }).result
      expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
      expect(['1b', '1c']).toContain(signature.slice(-2))
      expect(await verifyMessage({ address, message: check, signature })).toBe(true)
    }
  })

  it('eth_signTypedData_v4: a signature viem verifies', async () => {
    const h = setup()
    const { wallets, entropyId } = await create(h)
    const address = wallets[0]?.address as `0x${string}`
    const typed = {
      domain: {
        name: 'Ether Mail',
        version: '1',
        chainId: 1,
        verifyingContract: '0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC',
      },
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Person: [
          { name: 'name', type: 'string' },
          { name: 'wallet', type: 'address' },
        ],
        Mail: [
          { name: 'from', type: 'Person' },
          { name: 'to', type: 'Person' },
          { name: 'contents', type: 'string' },
        ],
      },
      primaryType: 'Mail',
      message: {
        from: { name: 'Cow', wallet: '0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826' },
        to: { name: 'Bob', wallet: '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB' },
        contents: 'Hello, Bob!',
      },
    } as const
    const answer = await h.request('latchkey:wallets:rpc', {
      access_token: alice,
      entropy_id: entropyId,
      chain_type: 'ethereum',
      wallet_index: 0,
      request: { method: 'eth_signTypedData_v4', params: [address, JSON.stringify(typed)] },
    })
    const signature = (answer.message.data as { result: `0x${string}` }).result
    const { EIP712Domain: _, ...types } = typed.types
    expect(await verifyTypedData({ address, ...typed, types, signature })).toBe(true)
  })

  it('Solana signMessage: an ed25519 signature of the Solana wallet, base64url', async () => {
    const h = setup()
    const { wallets, entropyId } = await create(h, ['ethereum', 'solana'])
    const solana = wallets.find((w) => w.chain_type === 'solana') as Wallet
    const message = new TextEncoder().encode('sign in to latchkey')
    const answer = await h.request('latchkey:wallets:rpc', {
      access_token: alice,
      entropy_id: entropyId,
      chain_type: 'solana',
      wallet_index: 0,
      request: { method: 'signMessage', params: { message: bytesToBase64url(message) } },
    })
    const signature = base64urlToBytes((answer.message.data as { result: string }).result)
    expect(ed25519.verify(signature, message, base58.decode(solana.address))).toBe(true)
  })

  it('refuses an address that is not the wallet, and a share that needs recovery', async () => {
    const h = setup()
    const { entropyId } = await create(h)
    const wrong = await h.request('latchkey:wallets:rpc', {
      access_token: alice,
      entropy_id: entropyId,
      chain_type: 'ethereum',
      wallet_index: 0,
      request: {
        method: 'personal_sign',
        params: ['hi', '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB'],
      },
    })
    expect(wrong.message.error?.code).toBe('INVALID_PAYLOAD')
    const other = createHarness({ fetch: h.server.fetch, ancestorOrigins: [HOST] })
    const missing = await other.request('latchkey:wallets:rpc', {
      access_token: alice,
      entropy_id: entropyId,
      chain_type: 'ethereum',
      wallet_index: 0,
      request: { method: 'personal_sign', params: ['hi', entropyId] },
    })
    expect(missing.message.error?.code).toBe('WALLET_NOT_FOUND')
  })

  it('refuses another user: the server does not release their auth share', async () => {
    const h = setup()
    const { entropyId } = await create(h)
    const answer = await h.request('latchkey:wallets:rpc', {
      access_token: 'user-mallory',
      entropy_id: entropyId,
      chain_type: 'ethereum',
      wallet_index: 0,
      request: { method: 'personal_sign', params: ['hi', entropyId] },
    })
    expect(answer.message.error?.code).toBe('WALLET_NOT_FOUND')
  })
})

describe('add', () => {
  it('derives the next index and stores it on the server', async () => {
    const h = setup()
    const { entropyId } = await create(h)
    const answer = await h.request('latchkey:wallets:add', {
      access_token: alice,
      entropy_id: entropyId,
      chain_type: 'ethereum',
      wallet_index: 1,
    })
    const wallets = (answer.message.data as { user: { linked_accounts: Wallet[] } }).user
      .linked_accounts
    expect(wallets.map((w) => w.wallet_index)).toEqual([0, 1])
    expect(wallets[1]?.address).not.toBe(wallets[0]?.address)
  })
})

describe('recover', () => {
  it('automatic: rebuilds and stores the device share on a new device', async () => {
    const h = setup()
    const { entropyId } = await create(h)
    const other = createHarness({ fetch: h.server.fetch, ancestorOrigins: [HOST] })
    const answer = await other.request('latchkey:wallets:recover', {
      access_token: alice,
      entropy_id: entropyId,
    })
    expect(answer.message.data).toEqual({
      entropy_id: entropyId,
      status: 'ready',
      recovery_method: 'latchkey',
    })
    const original = await h.store.get(APP_ID, entropyId)
    const recovered = await other.store.get(APP_ID, entropyId)
    expect(recovered?.deviceShare).toEqual(original?.deviceShare)
  })

  it('password: the right password recovers, a wrong one is INVALID_RECOVERY_PASSWORD and stores nothing', async () => {
    const h = setup()
    const { entropyId } = await create(h, ['ethereum'], {
      method: 'user-passcode',
      password: 'correct horse',
    })
    const material = h.server.secrets.get(entropyId.toLowerCase())?.recovery
    expect(material).toMatchObject({ method: 'user-passcode', kdf: { algorithm: 'argon2id' } })
    expect(JSON.stringify(h.server.calls)).not.toContain('correct horse')

    const other = createHarness({ fetch: h.server.fetch, ancestorOrigins: [HOST] })
    const wrong = await other.request('latchkey:wallets:recover', {
      access_token: alice,
      entropy_id: entropyId,
      password: 'wrong horse',
    })
    expect(wrong.message.event).toBe('latchkey:wallets:recover:error')
    expect(wrong.message.error?.code).toBe('INVALID_RECOVERY_PASSWORD')
    expect(other.store.records.size).toBe(0)

    const right = await other.request('latchkey:wallets:recover', {
      access_token: alice,
      entropy_id: entropyId,
      password: 'correct horse',
    })
    expect(right.message.data).toMatchObject({ status: 'ready', recovery_method: 'user-passcode' })
    expect(other.store.records.size).toBe(1)
  }, 60_000)
})

describe('set-recovery, import, clear', () => {
  it('set-recovery re-seals the device share under the new method', async () => {
    const h = setup()
    const { entropyId } = await create(h)
    const answer = await h.request('latchkey:wallets:set-recovery', {
      access_token: alice,
      entropy_id: entropyId,
      recovery: { method: 'user-passcode', password: 'a new password' },
    })
    expect(answer.message.event).toBe('latchkey:wallets:set-recovery:result')
    expect(h.server.secrets.get(entropyId.toLowerCase())?.recovery.method).toBe('user-passcode')
    expect((await h.store.get(APP_ID, entropyId))?.recoveryMethod).toBe('user-passcode')
  }, 60_000)

  it('import: an Ethereum key becomes its own secret with entropy type private-key', async () => {
    const h = setup()
    const answer = await h.request('latchkey:wallets:import', {
      access_token: alice,
      chain_type: 'ethereum',
      private_key: '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80',
    })
    const wallets = (answer.message.data as { user: { linked_accounts: Wallet[] } }).user
      .linked_accounts
    expect(wallets).toMatchObject([
      {
        address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        entropy_id: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
        wallet_index: null,
      },
    ])
    expect(h.server.calls.at(-1)?.body).toMatchObject({ entropy_type: 'private-key' })
    const bad = await h.request('latchkey:wallets:import', {
      access_token: alice,
      chain_type: 'ethereum',
      private_key: '0x1234',
    })
    expect(bad.message.error?.code).toBe('INVALID_PAYLOAD')
  })

  it('clear forgets this app’s device shares only', async () => {
    const h = setup()
    const { entropyId } = await create(h)
    await h.store.put({
      appId: 'zzzzzzzzzzzzzzzzzzzzzzzzz',
      entropyId,
      deviceShare: new Uint8Array([1, 2]),
      recoveryMethod: 'latchkey',
      updatedAt: 0,
    })
    const answer = await h.request('latchkey:clear', {})
    expect(answer.message).toEqual({
      id: expect.any(String),
      event: 'latchkey:clear:result',
      data: {},
    })
    expect(await h.store.get(APP_ID, entropyId)).toBeNull()
    expect(h.store.records.size).toBe(1)
  })
})
