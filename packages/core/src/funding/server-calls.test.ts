import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, type Handler, json } from '../test/fake-server.ts'
import { coinbaseStatus } from './coinbaseStatus.ts'
import { createCoinbaseSession } from './createCoinbaseSession.ts'
import { signMoonpayUrl } from './signMoonpayUrl.ts'
import { splTokenInfo } from './splTokenInfo.ts'

// The calls to our server (docs/funding.md): the on-ramp ones carry the
// user's access token; the server signs and mints for the user's own wallets.
function setup(handler: Handler, options: { loggedIn?: boolean } = {}) {
  const fake = createFakeFetch(handler)
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set() {}, remove() {} },
    http: { sleep: async () => {} },
  })
  if (options.loggedIn !== false)
    client.session.applyAuthResponse(authResponse({ exp: Math.floor(Date.now() / 1000) + 3600 }))
  return { client, calls: fake.calls }
}

const address = '0xc216eD2D6c295579718dbd4a797845CdA70B3C36'

describe('signMoonpayUrl', () => {
  it('POSTs the request with the bearer token and answers the signed URL and external id', async () => {
    const { client, calls } = setup(() =>
      json(200, {
        signed_url: 'https://buy-sandbox.moonpay.com/?apiKey=pk_test_x&signature=abc',
        external_transaction_id: 'ext-1',
      }),
    )
    const body = {
      address,
      currency_code: 'eth_base',
      quote_currency_amount: '0.05',
      use_sandbox: true,
      payment_method: 'credit_debit_card' as const,
    }
    expect(await signMoonpayUrl(client, body)).toEqual({
      signedUrl: 'https://buy-sandbox.moonpay.com/?apiKey=pk_test_x&signature=abc',
      externalTransactionId: 'ext-1',
    })
    expect(calls[0]?.url).toBe('http://api.test/api/v1/funding/moonpay/sign')
    expect(calls[0]?.method).toBe('POST')
    expect(calls[0]?.headers.authorization).toMatch(/^Bearer /)
    expect(calls[0]?.body).toEqual(body)
  })

  it('refuses with NOT_AUTHENTICATED, without calling the server, when logged out', async () => {
    const { client, calls } = setup(() => json(200, {}), { loggedIn: false })
    await expect(
      signMoonpayUrl(client, { address, currency_code: 'eth', use_sandbox: false }),
    ).rejects.toMatchObject({ code: 'NOT_AUTHENTICATED' })
    expect(calls.filter((c) => c.url.includes('/funding/'))).toEqual([])
  })

  it("passes the server's refusal on as its code (ONRAMP_NOT_CONFIGURED)", async () => {
    const { client } = setup(() =>
      json(404, {
        code: 'ONRAMP_NOT_CONFIGURED',
        message: 'This app has not set up that funding provider',
      }),
    )
    const error = await signMoonpayUrl(client, {
      address,
      currency_code: 'eth',
      use_sandbox: false,
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LatchkeyError)
    expect((error as LatchkeyError).code).toBe('ONRAMP_NOT_CONFIGURED')
  })
})

describe('createCoinbaseSession and coinbaseStatus', () => {
  it('POSTs the session request and answers the pay URL and partner user id', async () => {
    const { client, calls } = setup(() =>
      json(200, {
        url: 'https://pay.coinbase.com/buy/select-asset?sessionToken=t',
        partner_user_id: 'pu_12345678',
      }),
    )
    const body = { chain: 8453, address, asset: 'ETH', amount: '0.05', experience: 'buy' as const }
    expect(await createCoinbaseSession(client, body)).toEqual({
      url: 'https://pay.coinbase.com/buy/select-asset?sessionToken=t',
      partnerUserId: 'pu_12345678',
    })
    expect(calls[0]?.url).toBe('http://api.test/api/v1/funding/coinbase/session')
    expect(calls[0]?.method).toBe('POST')
    expect(calls[0]?.headers.authorization).toMatch(/^Bearer /)
    expect(calls[0]?.body).toEqual(body)
  })

  it('GETs the status by partner user id with the bearer token', async () => {
    const { client, calls } = setup(() => json(200, { status: 'success' }))
    expect(await coinbaseStatus(client, 'pu_12345678')).toBe('success')
    expect(calls[0]?.url).toBe(
      'http://api.test/api/v1/funding/coinbase/status?partner_user_id=pu_12345678',
    )
    expect(calls[0]?.method).toBe('GET')
    expect(calls[0]?.headers.authorization).toMatch(/^Bearer /)
  })
})

describe('splTokenInfo', () => {
  it('GETs the mint and cluster and answers symbol and decimals', async () => {
    const { client, calls } = setup(() => json(200, { symbol: 'USDC', decimals: 6 }))
    const mint = '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU'
    expect(await splTokenInfo(client, { mint_address: mint, cluster: 'devnet' })).toEqual({
      symbol: 'USDC',
      decimals: 6,
    })
    expect(calls[0]?.url).toBe(
      `http://api.test/api/v1/spl_token_info?mint_address=${mint}&cluster=devnet`,
    )
  })

  it("fails with 'Unable to fetch token details', the server's error as the cause", async () => {
    const { client } = setup(() => json(404, { code: 'NOT_FOUND', message: 'No such mint' }))
    const error = (await splTokenInfo(client, {
      mint_address: '4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU',
      cluster: 'devnet',
    }).catch((e: unknown) => e)) as LatchkeyError
    expect(error.code).toBe('TOKEN_DETAILS_FAILED')
    expect(error.userMessage.title).toBe('Unable to fetch token details')
    expect(error.cause).toBeInstanceOf(LatchkeyError)
  })
})
