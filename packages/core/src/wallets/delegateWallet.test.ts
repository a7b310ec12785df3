import { routes } from '@latchkey/protocol/routes'
import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { getMfaPrompter } from '../mfa/prompter.ts'
import { createMemoryStorage } from '../storage.ts'
import { ETH0, setupEnclaveClient, userWith, walletWire } from '../test/enclave-client.ts'
import { APP_ID, authResponse, createFakeFetch, json } from '../test/fake-server.ts'
import { delegateWallet } from './delegateWallet.ts'
import { revokeWallets } from './revokeWallets.ts'

// Delegated actions, the client half (spec 03 §2, §5, §7; docs/delegated-actions.md):
// delegateWallet asks the enclave (which seals the share; enclave delegate.test.ts),
// revokeWallets posts an empty body.

const SOL0 = 'So1ana1111111111111111111111111111111111111'
const wallets = () => [walletWire(ETH0, 'ethereum', 0), walletWire(SOL0, 'solana', 0)]
const delegated = (address: string) =>
  userWith(...wallets().map((w) => ({ ...w, delegated: w.address === address })))

function setup(onDelegate: (data: Record<string, unknown>) => unknown = () => ({})) {
  return setupEnclaveClient((event, data) => {
    if (event === 'latchkey:wallets:connect')
      return { entropy_id: ETH0, status: 'ready', recovery_method: 'latchkey' }
    if (event === 'latchkey:delegate') return onDelegate(data)
    throw new Error(`unexpected ${event}`)
  }, wallets())
}

const events = (request: ReturnType<typeof setup>['request']) => request.mock.calls.map((c) => c[0])

describe('delegateWallet', () => {
  it('asks the enclave to delegate the wallet and shows the updated user', async () => {
    const { client, request } = setup((data) => ({ user: delegated(data.address as string) }))
    const user = await delegateWallet(client, {
      address: ETH0.toUpperCase().replace('0X', '0x'),
      chainType: 'ethereum',
    })
    expect(events(request)).toEqual(['latchkey:wallets:connect', 'latchkey:delegate'])
    // The wallet's own spelling, and the fresh access token.
    expect(request.mock.calls[1]?.[1]).toEqual({
      access_token: expect.any(String),
      address: ETH0,
      chain_type: 'ethereum',
    })
    const wallet = user.linkedAccounts.find((a) => a.type === 'wallet' && a.address === ETH0)
    expect(wallet).toMatchObject({ delegated: true })
    expect(client.session.getState().user).toBe(user)
  })

  it("an address that is not the user's own embedded wallet: spec 03 §5's message, and the enclave is never asked", async () => {
    const { client, request } = setup()
    for (const parameters of [
      { address: `0x${'22'.repeat(20)}`, chainType: 'ethereum' as const },
      // The right address on the wrong chain.
      { address: ETH0, chainType: 'solana' as const },
      // Base58 is case-sensitive.
      { address: SOL0.toLowerCase(), chainType: 'solana' as const },
      // Spec 03 §5: only ethereum and solana.
      { address: ETH0, chainType: 'bitcoin' as unknown as 'ethereum' },
    ]) {
      const error = await delegateWallet(client, parameters).catch((e: LatchkeyError) => e)
      expect(error).toBeInstanceOf(LatchkeyError)
      expect((error as LatchkeyError).code).toBe('DELEGATION_ADDRESS_NOT_OWNED')
      expect((error as LatchkeyError).userMessage.title).toBe(
        'Address to delegate is not associated with current user.',
      )
    }
    expect(request).not.toHaveBeenCalled()
  })

  it('logged out: NOT_AUTHENTICATED', async () => {
    const { client, request } = setup()
    await client.session.clear()
    const error = await delegateWallet(client, { address: ETH0, chainType: 'ethereum' }).catch(
      (e: LatchkeyError) => e,
    )
    expect((error as LatchkeyError).code).toBe('NOT_AUTHENTICATED')
    expect(request).not.toHaveBeenCalled()
  })

  it('with MFA: the user verifies, then the delegation goes again (the route wants a fresh verification)', async () => {
    let asked = 0
    const { client, request } = setup((data) => {
      asked++
      if (asked === 1)
        throw new LatchkeyError('MFA_REQUIRED', undefined, {
          details: { mfa_methods: ['totp'] },
        })
      return { user: delegated(data.address as string) }
    })
    const prompter = getMfaPrompter(client)
    prompter.handle()
    const result = delegateWallet(client, { address: SOL0, chainType: 'solana' })
    await expect.poll(() => prompter.getChallenge()?.methods).toEqual(['totp'])
    await prompter.verify(async () => {})
    const user = await result
    expect(events(request).filter((e) => e === 'latchkey:delegate')).toHaveLength(2)
    expect(
      user.linkedAccounts.find((a) => a.type === 'wallet' && a.address === SOL0),
    ).toMatchObject({
      delegated: true,
    })
  })

  it("the enclave's refusal comes through as is", async () => {
    const { client } = setup(() => {
      throw new LatchkeyError('WALLET_NOT_FOUND')
    })
    await expect(
      delegateWallet(client, { address: ETH0, chainType: 'ethereum' }),
    ).rejects.toMatchObject({
      code: 'WALLET_NOT_FOUND',
    })
  })
})

describe('revokeWallets', () => {
  function revokeSetup(answer: () => Response) {
    const fake = createFakeFetch(answer)
    const client = createLatchkeyClient({
      appId: APP_ID,
      apiUrl: 'http://localhost:8787',
      fetch: fake.fetch,
      storage: createMemoryStorage(),
      cookies: { get: () => null, set() {}, remove() {} },
      http: { sleep: async () => {}, maxRetries: 0 },
    })
    client.session.applyAuthResponse({
      ...authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }),
      user: delegated(ETH0),
    })
    return { client, calls: fake.calls }
  }

  it('POSTs an empty body with the access token (spec 03 §7) and shows every wallet undelegated', async () => {
    const { client, calls } = revokeSetup(() => json(200, { user: userWith(...wallets()) }))
    const user = await revokeWallets(client)
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({
      url: `http://localhost:8787${routes.embeddedWalletsRevoke}`,
      method: 'POST',
      body: undefined,
      headers: { authorization: expect.stringMatching(/^Bearer /) },
    })
    expect(calls[0]?.headers['content-type']).toBeUndefined()
    const flags = user.linkedAccounts.flatMap((a) => (a.type === 'wallet' ? [a.delegated] : []))
    expect(flags).toEqual([false, false])
    expect(client.session.getState().user).toBe(user)
  })

  it('the server refusing keeps the user as it was', async () => {
    const { client } = revokeSetup(() => json(401, { code: 'UNAUTHORIZED', message: 'x' }))
    const before = client.session.getState().user
    await expect(revokeWallets(client)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    expect(client.session.getState().user).toBe(before)
  })

  it('logged out: NOT_AUTHENTICATED, nothing sent', async () => {
    const { client, calls } = revokeSetup(() => json(200, {}))
    await client.session.clear()
    await expect(revokeWallets(client)).rejects.toMatchObject({ code: 'NOT_AUTHENTICATED' })
    expect(calls).toHaveLength(0)
  })
})
