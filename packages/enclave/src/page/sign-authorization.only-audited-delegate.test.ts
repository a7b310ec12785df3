import { describe, expect, it } from 'vitest'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST } from './harness.test-helper.ts'
import { SIMPLE_7702_ACCOUNT } from './sign.ts'

// An EIP-7702 authorization gives the delegate's code full control of the
// EOA. The host page names the delegate, so the enclave signs only for the
// audited Simple7702Account: a script in the host cannot get the wallet to
// delegate to a contract that drains it.

describe('the enclave delegates the wallet only to Simple7702Account', () => {
  it('refuses an authorization for any other contract, answering no signature', async () => {
    const server = createFakeServer({ appId: APP_ID })
    const h = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST] })
    const created = await h.request('latchkey:wallets:create', {
      access_token: 'user-alice',
      chain_types: ['ethereum'],
      recovery: { method: 'latchkey' },
    })
    const [wallet] = (
      created.message.data as { user: { linked_accounts: { entropy_id: string }[] } }
    ).user.linked_accounts
    const sign = (address: string) =>
      h.request('latchkey:wallets:rpc', {
        access_token: 'user-alice',
        entropy_id: wallet?.entropy_id,
        chain_type: 'ethereum',
        wallet_index: 0,
        request: { method: 'eth_signAuthorization', params: [{ chainId: 1, address, nonce: 0 }] },
      })
    for (const drainer of [
      '0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB',
      '0x0000000000000000000000000000000000000000',
    ]) {
      const answer = await sign(drainer)
      expect(answer.message.error?.code).toBe('INVALID_PAYLOAD')
      expect(answer.message.data).toBeUndefined()
    }
    const allowed = await sign(SIMPLE_7702_ACCOUNT.toLowerCase())
    expect((allowed.message.data as { result: string }).result).toMatch(/^0x[0-9a-f]{130}$/)
  })
})
