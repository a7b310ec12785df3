import { routes } from '@latchkey/protocol/routes'
import { describe, expect, it } from 'vitest'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST, settle } from './harness.test-helper.ts'
import { shareKey } from './store.ts'

// Tracker issue 15, item 9: `latchkey:account:delete` deletes the user at the
// server — a key route, so it goes with this device's proof — and then this
// device's shares of the user's wallets; a refusal deletes nothing here.
const alice = 'user-alice'
const bob = 'user-bob'

function setup() {
  const server = createFakeServer({ appId: APP_ID })
  return { server, ...createHarness({ fetch: server.fetch, ancestorOrigins: [HOST] }) }
}

type H = ReturnType<typeof setup>

/** `owner` creates an HD wallet (Ethereum + Solana); answers its entropy id. */
async function createWallet(h: H, owner: string): Promise<string> {
  const answer = await h.request('latchkey:wallets:create', {
    access_token: owner,
    chain_types: ['ethereum', 'solana'],
    recovery: { method: 'latchkey' },
  })
  const user = (answer.message.data as { user: { linked_accounts: { entropy_id: string }[] } }).user
  return user.linked_accounts[0]?.entropy_id as string
}

/** Alice with a wallet (Ethereum + Solana, one secret), Bob (another user of this device) with one. */
async function twoUsers(h: H) {
  const aliceId = await createWallet(h, alice)
  const bobId = await createWallet(h, bob)
  expect(h.store.records.size).toBe(2)
  return { aliceIds: [aliceId], bobId }
}

const deleteRequest = (h: H, token = alice) =>
  h.request('latchkey:account:delete', { access_token: token })

describe('latchkey:account:delete', () => {
  it("deletes the user at the server with this device's proof, then only that user's shares here", async () => {
    const h = setup()
    const { aliceIds, bobId } = await twoUsers(h)
    const callsBefore = h.server.calls.length

    const answer = await deleteRequest(h)
    expect(answer.targetOrigin).toBe(HOST)
    expect(answer.message).toEqual({
      id: expect.any(String),
      event: 'latchkey:account:delete:result',
      data: { success: true },
    })
    // Read the user (which wallets), then the deletion, each with a fresh proof of this device.
    const calls = h.server.calls.slice(callsBefore)
    expect(calls.map((c) => [c.method, c.path])).toEqual([
      ['GET', routes.usersMe],
      ['POST', routes.usersDelete],
    ])
    expect(calls[1]?.body).toEqual({})
    expect(calls[1]?.proof?.jkt).toBe(await h.key.thumbprint)
    expect(calls[1]?.proof?.jti).not.toBe(calls[0]?.proof?.jti)
    // The server forgot Alice's secrets; this device forgot her shares, and kept Bob's.
    expect([...h.server.secrets.values()].map((s) => s.owner)).toEqual([bob])
    for (const id of aliceIds) expect(await h.store.get(APP_ID, id)).toBeNull()
    expect([...h.store.records.keys()]).toEqual([shareKey(APP_ID, bobId)])
    // Alice's token is dead at the server.
    expect((await deleteRequest(h)).message.error?.code).toBe('UNAUTHORIZED')
  })

  it.each([
    ['a refused proof', { status: 401, body: { code: 'ENCLAVE_PROOF_INVALID', message: 'x' } }],
    ['the key-route budget', { status: 429, body: { code: 'TOO_MANY_REQUESTS', message: 'x' } }],
    ['a 500', { status: 500, body: { code: 'INTERNAL_ERROR', message: 'boom' } }],
    ['a network failure', 'network' as const],
  ])('deletes nothing here when the server refuses (%s)', async (_name, failure) => {
    const h = setup()
    await twoUsers(h)
    const shares = new Map(h.store.records)
    h.server.failNext(routes.usersDelete, failure)

    const answer = await deleteRequest(h)
    expect(answer.message.event).toBe('latchkey:account:delete:error')
    const expected = failure === 'network' ? 'NETWORK_ERROR' : failure.body.code
    expect(answer.message.error?.code).toBe(expected)
    expect(new Map(h.store.records)).toEqual(shares)
    expect([...h.server.secrets.values()].filter((s) => s.owner === alice)).toHaveLength(1)
  })

  it('asks nothing to be deleted when the user cannot be read', async () => {
    const h = setup()
    await twoUsers(h)
    const shares = new Map(h.store.records)
    h.server.failNext(routes.usersMe, { status: 401, body: { code: 'UNAUTHORIZED', message: 'x' } })

    const answer = await deleteRequest(h)
    expect(answer.message.error?.code).toBe('UNAUTHORIZED')
    expect(h.server.calls.some((c) => c.path === routes.usersDelete)).toBe(false)
    expect(new Map(h.store.records)).toEqual(shares)
  })

  it('a request without an access token is not one: ignored, nothing asked, nothing deleted', async () => {
    const h = setup()
    await twoUsers(h)
    const [posted, calls] = [h.posted.length, h.server.calls.length]
    for (const data of [{}, { access_token: '' }, { access_token: 7 }])
      h.deliver({ id: 'x', event: 'latchkey:account:delete', data })
    await settle()
    expect(h.posted.length).toBe(posted)
    expect(h.server.calls.length).toBe(calls)
    expect(h.store.records.size).toBe(2)
  })

  it('a user without wallets is deleted too, and no share is touched', async () => {
    const h = setup()
    const bobId = await createWallet(h, bob)
    const answer = await deleteRequest(h)
    expect(answer.message.event).toBe('latchkey:account:delete:result')
    expect([...h.store.records.keys()]).toEqual([shareKey(APP_ID, bobId)])
  })

  it('a share that cannot be removed after the server deleted the user is only warned about', async () => {
    const h = setup()
    await createWallet(h, alice)
    h.store.delete = async () => {
      throw new Error('IndexedDB is gone')
    }
    const answer = await deleteRequest(h)
    expect(answer.message.event).toBe('latchkey:account:delete:result')
  })
})
