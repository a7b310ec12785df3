import { Header } from '@latchkey/protocol/constants'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, createFakeFetch, type Handler, json } from '../test/fake-server.ts'
import { getTokenPrice } from './prices.ts'

// Spec 03 §7 "Prices and tokens": the price comes from the server; a failed
// fetch is logged and no price is shown (null).

let warn: ReturnType<typeof vi.spyOn>
beforeEach(() => {
  warn = vi.spyOn(console, 'warn').mockImplementation(() => {})
})
afterEach(() => {
  warn.mockRestore()
})

function clientAnswering(handler: Handler) {
  const fake = createFakeFetch(handler)
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {} },
  })
  return { client, calls: fake.calls }
}

describe('getTokenPrice', () => {
  it('GETs /api/v1/token_price with chainId and tokenSymbol as the app, and answers usd', async () => {
    const { client, calls } = clientAnswering(() => json(200, { usd: 142.25 }))
    expect(await getTokenPrice(client, { chainId: 0, tokenSymbol: 'SOL' })).toBe(142.25)
    expect(calls).toHaveLength(1)
    expect(calls[0]?.url).toBe('http://api.test/api/v1/token_price?chainId=0&tokenSymbol=SOL')
    expect(calls[0]?.method).toBe('GET')
    expect(calls[0]?.headers[Header.appId]).toBe(APP_ID)
    expect(calls[0]?.headers.authorization).toBeUndefined()
    expect(warn).not.toHaveBeenCalled()
  })

  it('answers null without a warning when the server has no price source (a setting)', async () => {
    const { client } = clientAnswering(() =>
      json(404, { code: 'PRICES_NOT_CONFIGURED', message: 'off' }),
    )
    expect(await getTokenPrice(client, { chainId: 1, tokenSymbol: 'ETH' })).toBeNull()
    expect(warn).not.toHaveBeenCalled()
  })

  it.each([
    ['the symbol is not priced', json(404, { code: 'UNKNOWN_TOKEN', message: 'No price' })],
    ['the price source failed', json(424, { code: 'PRICE_UNAVAILABLE', message: 'failed' })],
    ['the answer is not a price', json(200, { usd: 'a lot' })],
  ])('answers null and warns once when %s', async (_, response) => {
    const { client, calls } = clientAnswering(() => response.clone())
    expect(await getTokenPrice(client, { chainId: 1, tokenSymbol: 'ETH' })).toBeNull()
    expect(calls).toHaveLength(1)
    expect(warn).toHaveBeenCalledTimes(1)
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/^Latchkey: no USD price for ETH on chain 1 \(/)
  })

  it('answers null when the server cannot be reached, after the client’s retries', async () => {
    const { client, calls } = clientAnswering(() => {
      throw new TypeError('fetch failed')
    })
    expect(await getTokenPrice(client, { chainId: 1, tokenSymbol: 'ETH' })).toBeNull()
    expect(calls).toHaveLength(4)
    expect(String(warn.mock.calls[0]?.[0])).toContain('NETWORK_ERROR')
  })
})
