import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json, wireUser } from '../test/fake-server.ts'
import { acceptTerms } from './acceptTerms.ts'
import { accountTransferOffer, canTransferAccount, transferAccount } from './transferAccount.ts'

const exp = Math.floor(Date.now() / 1000) + 3600

/** A client logged in as alice, answering every later call with `handler`. */
async function loggedIn(handler: Parameters<typeof createFakeFetch>[0]) {
  const fake = createFakeFetch(handler)
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {} },
  })
  client.session.applyAuthResponse(authResponse({ exp }))
  return { client, calls: fake.calls }
}

const offer = (type: string, wallet: string | null = null) => ({
  nonce: 'nonce-1',
  account: { type, display_name: '+15555550100' },
  other_user: {
    embedded_wallet_address: wallet,
    embedded_wallet_chain_type: wallet ? ('ethereum' as const) : null,
  },
})

describe('acceptTerms (spec 02 "Terms consent")', () => {
  it('POSTs an empty body with the bearer token and stores the returned user', async () => {
    const { client, calls } = await loggedIn(() =>
      json(200, { ...wireUser(), has_accepted_terms: true }),
    )
    const user = await acceptTerms(client)
    expect(user.hasAcceptedTerms).toBe(true)
    expect(client.session.getState().user?.hasAcceptedTerms).toBe(true)
    expect(calls[0]).toMatchObject({
      url: 'http://api.test/api/v1/users/me/accept_terms',
      method: 'POST',
      body: {},
    })
    expect(calls[0]?.headers.authorization).toMatch(/^Bearer /)
  })
})

describe('transferAccount (spec 02 "Account transfer")', () => {
  it.each([
    ['phone', { phoneNumber: '+15555550100' }, '/api/v1/passwordless_sms/transfer'],
    ['email', { email: 'a@example.com' }, '/api/v1/passwordless/transfer'],
    ['google', { provider: 'google', subject: 'sub-1' }, '/api/v1/oauth/transfer'],
    [
      'siwe',
      {
        address: '0xabc',
        walletClientType: 'metamask',
        connectorType: 'injected',
        chainId: 'eip155:1',
      },
      '/api/v1/siwe/transfer',
    ],
    ['siws', { address: 'So1ana' }, '/api/v1/siws/transfer'],
    ['farcaster', { farcaster_id: 7 }, '/api/v1/farcaster/transfer'],
    ['telegram', { telegram_user_id: '42' }, '/api/v1/telegram/transfer'],
  ])('%s goes to its route with the nonce and the identifier', async (type, account, path) => {
    const { client, calls } = await loggedIn(() => json(200, wireUser()))
    await transferAccount(client, { offer: offer(type), account })
    expect(calls[0]?.url).toBe(`http://api.test${path}`)
    expect(calls[0]?.body).toMatchObject({ ...account, nonce: 'nonce-1', accountType: type })
  })

  it('fills an OAuth provider from the offer', async () => {
    const { client, calls } = await loggedIn(() => json(200, wireUser()))
    await transferAccount(client, { offer: offer('github'), account: { subject: 's' } })
    expect(calls[0]?.body).toMatchObject({ provider: 'github', subject: 's' })
  })

  it("fills an OAuth account's subject from the offer (the page never learns it otherwise)", async () => {
    const { client, calls } = await loggedIn(() => json(200, wireUser()))
    const github = {
      ...offer('github'),
      account: { type: 'github', display_name: 'octo', subject: '42' },
    }
    await transferAccount(client, { offer: github, account: {} })
    expect(calls[0]?.body).toMatchObject({
      provider: 'github',
      subject: '42',
      accountType: 'github',
    })
  })

  it('stores the user it answers: the one who now holds the account', async () => {
    const { client } = await loggedIn(() => json(200, wireUser('bob@example.com')))
    const user = await transferAccount(client, {
      offer: offer('phone'),
      account: { phoneNumber: '+15555550100' },
    })
    expect(user.email?.address).toBe('bob@example.com')
    expect(client.session.getState().user?.email?.address).toBe('bob@example.com')
  })

  it("refuses without the nonce or the account: 'missing account transfer inputs'", async () => {
    const { client, calls } = await loggedIn(() => json(200, wireUser()))
    const missingNonce = transferAccount(client, {
      offer: { ...offer('phone'), nonce: '' },
      account: { phoneNumber: '+15555550100' },
    })
    await expect(missingNonce).rejects.toMatchObject({ code: 'TRANSFER_INPUTS_MISSING' })
    await expect(
      transferAccount(client, { offer: offer('phone'), account: {} }),
    ).rejects.toMatchObject({
      code: 'TRANSFER_INPUTS_MISSING',
      message: 'missing account transfer inputs',
    })
    // Spec 02 §5: a siwe transfer needs the wallet metadata.
    await expect(
      transferAccount(client, { offer: offer('siwe'), account: { address: '0xabc' } }),
    ).rejects.toMatchObject({ code: 'TRANSFER_INPUTS_MISSING' })
    expect(calls).toHaveLength(0)
  })

  it.each(['custom', 'guest', 'passkey', 'wallet'])('refuses a %s account', async (type) => {
    const { client, calls } = await loggedIn(() => json(200, wireUser()))
    await expect(
      transferAccount(client, { offer: offer(type), account: {} }),
    ).rejects.toMatchObject({ code: 'TRANSFER_NOT_ALLOWED' })
    expect(calls).toHaveLength(0)
  })

  it("passes the server's refusal on (an expired nonce)", async () => {
    const { client } = await loggedIn(() =>
      json(400, { code: 'TRANSFER_EXPIRED', message: 'expired' }),
    )
    await expect(
      transferAccount(client, { offer: offer('phone'), account: { phoneNumber: '+1555' } }),
    ).rejects.toMatchObject({ code: 'TRANSFER_EXPIRED' })
  })
})

describe('canTransferAccount', () => {
  it('needs the identifier the route reads', () => {
    expect(canTransferAccount(offer('phone'), { phoneNumber: '+1555' })).toBe(true)
    expect(canTransferAccount(offer('phone'), { email: 'a@example.com' })).toBe(false)
    // An OAuth offer names the provider's subject; without it there is nothing to name.
    expect(canTransferAccount(offer('google'), { provider: 'google' })).toBe(false)
    const google = {
      ...offer('google'),
      account: { type: 'google', display_name: 'a', subject: 's' },
    }
    expect(canTransferAccount(google, { provider: 'google' })).toBe(true)
    expect(canTransferAccount(offer('guest'), {})).toBe(false)
  })
})

describe('accountTransferOffer', () => {
  it("reads the offer from an ACCOUNT_TRANSFER_REQUIRED error's details", () => {
    const error = new LatchkeyError('ACCOUNT_TRANSFER_REQUIRED', undefined, {
      details: offer('phone', '0x1234'),
    })
    expect(accountTransferOffer(error)).toEqual(offer('phone', '0x1234'))
  })
  it('is null for other errors and for a malformed offer', () => {
    expect(accountTransferOffer(new LatchkeyError('ACCOUNT_ALREADY_LINKED'))).toBeNull()
    expect(
      accountTransferOffer(
        new LatchkeyError('ACCOUNT_TRANSFER_REQUIRED', undefined, { details: {} }),
      ),
    ).toBeNull()
    expect(accountTransferOffer(new Error('x'))).toBeNull()
  })
  it('survives the HTTP client: the body details reach the error', async () => {
    const { client } = await loggedIn(() =>
      json(400, { code: 'ACCOUNT_TRANSFER_REQUIRED', message: 'm', details: offer('email') }),
    )
    const error = await client.authedRequest('/api/v1/passwordless/link', {}).catch((e) => e)
    expect(accountTransferOffer(error)?.nonce).toBe('nonce-1')
  })
})
