import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { moonpaySignature, moonpayWidgetUrl, signMoonpayUrl } from './moonpay.ts'

// MoonPay's URL signing (dev.moonpay.com/v1.0/docs/ramps-sdk-url-signing,
// "How to generate signatures"): their example URL and keys, and the
// signature that example yields. The docs give the inputs; the expected
// value below is the one published for exactly these inputs in independent
// MoonPay integrations' test vectors (a Go and a Python client), not one we
// computed with the code under test.
const DOC_URL =
  'https://buy-sandbox.moonpay.com?apiKey=pk_test_key&currencyCode=eth&walletAddress=0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae'
const DOC_SECRET = 'sk_test_key'
const DOC_SIGNATURE = 'o1eO2arzL16TstEolGakHHFa33Mb61RCTfqToRWg7PA='

describe("MoonPay's documented example", () => {
  it('signs it to the documented signature', () => {
    expect(moonpaySignature(DOC_URL, DOC_SECRET)).toBe(DOC_SIGNATURE)
  })

  it('appends it last, URL-encoded, as the docs do', () => {
    expect(signMoonpayUrl(DOC_URL, DOC_SECRET)).toBe(
      `${DOC_URL}&signature=o1eO2arzL16TstEolGakHHFa33Mb61RCTfqToRWg7PA%3D`,
    )
  })

  it('the widget URL of those parameters is exactly the signed example', () => {
    const url = moonpayWidgetUrl(
      'https://buy-sandbox.moonpay.com',
      {
        apiKey: 'pk_test_key',
        currencyCode: 'eth',
        walletAddress: '0xde0b295669a9fd93d5f28d9ec85e40f4cb697bae',
        externalTransactionId: 'x',
      },
      DOC_SECRET,
    )
    // Same signing string plus our external id: the signature covers it.
    expect(url.startsWith(`${DOC_URL}&externalTransactionId=x&signature=`)).toBe(true)
  })
})

describe('moonpayWidgetUrl', () => {
  const parameters = {
    apiKey: 'pk_live_abc',
    currencyCode: 'usdc_sol',
    walletAddress: 'So1anaWa11et1111111111111111111111111111111',
    externalTransactionId: '6f1d1c2e-0000-4000-8000-000000000000',
    quoteCurrencyAmount: '0.5',
    colorCode: '#676FFF',
    theme: 'dark' as const,
    paymentMethod: 'apple_pay' as const,
  }

  it('encodes each value, signs the query from ? and puts signature last', () => {
    const signed = moonpayWidgetUrl('https://buy.moonpay.com', parameters, 'sk_live_secret')
    const [unsigned, signature] = signed.split('&signature=')
    expect(unsigned).toContain('colorCode=%23676FFF')
    expect(new URL(signed).searchParams.get('colorCode')).toBe('#676FFF')
    const expected = createHmac('sha256', 'sk_live_secret')
      .update(new URL(unsigned ?? '').search)
      .digest('base64')
    expect(decodeURIComponent(signature ?? '')).toBe(expected)
    expect([...new URL(signed).searchParams.keys()]).toEqual([
      'apiKey',
      'currencyCode',
      'walletAddress',
      'externalTransactionId',
      'quoteCurrencyAmount',
      'colorCode',
      'theme',
      'paymentMethod',
      'signature',
    ])
  })

  it('leaves out parameters not given', () => {
    const { quoteCurrencyAmount, colorCode, theme, paymentMethod, ...required } = parameters
    const signed = moonpayWidgetUrl('https://buy.moonpay.com', required, 'sk_live_secret')
    expect([...new URL(signed).searchParams.keys()]).toEqual([
      'apiKey',
      'currencyCode',
      'walletAddress',
      'externalTransactionId',
      'signature',
    ])
  })

  it('another secret gives another signature (the key is what MoonPay checks)', () => {
    const a = moonpayWidgetUrl('https://buy.moonpay.com', parameters, 'sk_live_one')
    const b = moonpayWidgetUrl('https://buy.moonpay.com', parameters, 'sk_live_two')
    expect(a.split('&signature=')[0]).toBe(b.split('&signature=')[0])
    expect(a).not.toBe(b)
  })
})
