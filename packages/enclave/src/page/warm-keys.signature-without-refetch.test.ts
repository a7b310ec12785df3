import { routes } from '@latchkey/protocol/routes'
import { verifyMessage } from 'viem'
import { describe, expect, it } from 'vitest'
import { sessionToken } from './fake-mfa.test-helper.ts'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST } from './harness.test-helper.ts'
import { signatureOf, warmSetup } from './warm-keys.test-helper.ts'
import { createWarmKeys } from './warm-keys.ts'

// docs/mfa.md "Warm keys": within this session's MFA window the rebuilt key
// stays in the enclave, so a signature after the first fetches nothing.
describe('within the MFA window', () => {
  it('the first signature fetches the auth share once; the next ones sign from the warm key', async () => {
    const warm = createWarmKeys()
    const s = await warmSetup({ warmKeys: warm })
    const first = signatureOf(await s.sign())
    expect(s.authShareFetches()).toBe(1)
    expect(warm.size).toBe(1)
    for (const message of ['second', 'third', '0x68656c6c6f']) {
      const signature = signatureOf(await s.sign(s.token, message))
      const check = message.startsWith('0x') ? { raw: message as `0x${string}` } : message
      expect(await verifyMessage({ address: s.address, message: check, signature })).toBe(true)
    }
    expect(s.authShareFetches()).toBe(1)
    expect(await verifyMessage({ address: s.address, message: 'hello', signature: first })).toBe(
      true,
    )
  })

  it('a warm signature makes no server call at all', async () => {
    const s = await warmSetup()
    signatureOf(await s.sign())
    const before = s.server.calls.length
    signatureOf(await s.sign())
    expect(s.server.calls.length).toBe(before)
  })

  it('adding a wallet and signing on another index reuse the same warm key', async () => {
    const s = await warmSetup()
    signatureOf(await s.sign())
    const added = await s.h.request('latchkey:wallets:add', {
      access_token: s.token,
      entropy_id: s.address,
      chain_type: 'ethereum',
      wallet_index: 1,
    })
    expect(added.message.event).toBe('latchkey:wallets:add:result')
    const accounts = (added.message.data as { user: { linked_accounts: { address: string }[] } })
      .user.linked_accounts
    const second = accounts[1]?.address as `0x${string}`
    const answer = await s.h.request('latchkey:wallets:rpc', {
      access_token: s.token,
      entropy_id: s.address,
      chain_type: 'ethereum',
      wallet_index: 1,
      request: { method: 'personal_sign', params: ['hi', second] },
    })
    expect(
      await verifyMessage({ address: second, message: 'hi', signature: signatureOf(answer) }),
    ).toBe(true)
    expect(s.authShareFetches()).toBe(1)
  })
})

describe('without MFA', () => {
  it('nothing is kept: every signature fetches the auth share (warm_until is null)', async () => {
    const server = createFakeServer({ appId: APP_ID })
    const warm = createWarmKeys()
    const h = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST], warmKeys: warm })
    const token = sessionToken('user-bob', 'session-b')
    const created = await h.request('latchkey:wallets:create', {
      access_token: token,
      chain_types: ['ethereum'],
      recovery: { method: 'latchkey' },
    })
    const address = (created.message.data as { user: { linked_accounts: { address: string }[] } })
      .user.linked_accounts[0]?.address as string
    for (let i = 0; i < 3; i++)
      signatureOf(
        await h.request('latchkey:wallets:rpc', {
          access_token: token,
          entropy_id: address,
          chain_type: 'ethereum',
          wallet_index: 0,
          request: { method: 'personal_sign', params: ['hi', address] },
        }),
      )
    expect(server.calls.filter((c) => c.path === routes.embeddedWalletsAuthShare)).toHaveLength(3)
    expect(warm.size).toBe(0)
  })
})
