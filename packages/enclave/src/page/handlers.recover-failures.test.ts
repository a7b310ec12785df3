import { routes } from '@latchkey/protocol/routes'
import { describe, expect, it } from 'vitest'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST } from './harness.test-helper.ts'

// Spec 02 §8 / spec 03 §8 (issue 17, item 13): a recovery that fails says
// which of the spec's situations it is — the wallet's data is gone from the
// server ('Wallet data is missing'), the wallet is not this user's ('Embedded
// wallet not found'), or the recovery failed otherwise ('Unable to recover
// wallet') — and stores nothing on this device.

const alice = 'user-alice'

async function setup() {
  const server = createFakeServer({ appId: APP_ID })
  const first = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST] })
  const created = await first.request('latchkey:wallets:create', {
    access_token: alice,
    chain_types: ['ethereum'],
    recovery: { method: 'latchkey' },
  })
  const user = (created.message.data as { user: { linked_accounts: { entropy_id: string }[] } })
    .user
  const entropyId = user.linked_accounts[0]?.entropy_id as string
  // A new device: no share here yet.
  const device = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST] })
  const recover = (token = alice) =>
    device.request('latchkey:wallets:recover', { access_token: token, entropy_id: entropyId })
  return { server, device, entropyId, recover }
}

describe('recover: the failures spec 02 §8 and spec 03 §8 name', () => {
  it("the account lists the wallet but the server has no recovery data: 'Wallet data is missing'", async () => {
    const { server, device, recover } = await setup()
    server.failNext(routes.embeddedWalletsRecovery, {
      status: 404,
      body: { code: 'WALLET_NOT_FOUND', message: 'Embedded wallet not found' },
    })
    const answer = await recover()
    expect(answer.message.error).toEqual({
      code: 'WALLET_DATA_MISSING',
      message: 'Wallet data is missing',
    })
    expect(device.store.records.size).toBe(0)
  })

  it("the same answer for a wallet that is not the user's stays 'Embedded wallet not found'", async () => {
    const { device, recover } = await setup()
    const answer = await recover('user-mallory')
    expect(answer.message.error?.code).toBe('WALLET_NOT_FOUND')
    expect(device.store.records.size).toBe(0)
  })

  it("a recovery share that does not open: 'Unable to recover wallet'", async () => {
    const { server, device, entropyId, recover } = await setup()
    const secret = server.secrets.get(entropyId.toLowerCase())
    if (secret?.recovery.method !== 'latchkey') throw new Error('expected automatic recovery')
    const sealed = secret.recovery.ciphertext
    // One character of the sealed share changed: AES-GCM refuses it.
    secret.recovery.ciphertext = `${sealed.slice(0, 20)}${sealed[20] === 'A' ? 'B' : 'A'}${sealed.slice(21)}`
    const answer = await recover()
    expect(answer.message.error).toEqual({
      code: 'UNABLE_TO_RECOVER_WALLET',
      message: 'Unable to recover wallet',
    })
    expect(device.store.records.size).toBe(0)
  })

  it("a server failure it does not name: 'Unable to recover wallet'", async () => {
    const { server, device, recover } = await setup()
    server.failNext(routes.embeddedWalletsRecovery, {
      status: 500,
      body: { code: 'INTERNAL_ERROR', message: 'boom' },
    })
    const answer = await recover()
    expect(answer.message.error?.code).toBe('UNABLE_TO_RECOVER_WALLET')
    expect(device.store.records.size).toBe(0)
  })
})
