import { createHmac } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { setAppSettings } from '../users/testing.ts'
import {
  allFundingOptions,
  type FundingUser,
  linkExternalWallet,
  MOONPAY_PUBLISHABLE_KEY,
  MOONPAY_SECRET_KEY,
  userWithWallets,
} from './testing.ts'

// POST /api/v1/funding/moonpay/sign (spec 03 §7 "Card on-ramp"): the server
// builds the widget URL for one of the caller's wallets and signs it with
// the app's MoonPay secret key, as MoonPay documents.
let t: TestInstance
let alice: FundingUser
beforeAll(async () => {
  t = await getTestInstance({
    appSettings: { funding: allFundingOptions },
    funding: { moonpay: { sandboxWidgetUrl: 'https://buy-sandbox.moonpay.com' } },
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'moonpay',
    secret_key: MOONPAY_SECRET_KEY,
  })
  alice = await userWithWallets(t, 'alice@example.com')
})
afterAll(() => t?.close())

const sign = (
  body: Record<string, unknown>,
  token: string | undefined = alice.token,
  appId?: string,
) =>
  t.request(routes.fundingMoonpaySign, {
    ...(token ? { token } : {}),
    ...(appId ? { appId } : {}),
    body,
  })

/** The signature MoonPay recomputes: HMAC-SHA256 of the query before `&signature=`. */
function verifies(signedUrl: string, secret: string): boolean {
  const [unsigned, signature] = signedUrl.split('&signature=')
  const expected = createHmac('sha256', secret)
    .update(new URL(unsigned ?? '').search)
    .digest('base64')
  return decodeURIComponent(signature ?? '') === expected
}

describe('signing', () => {
  it("signs a sandbox widget URL for the user's embedded Ethereum wallet", async () => {
    const res = await sign({
      address: alice.ethereum,
      currency_code: 'eth',
      quote_currency_amount: '0.05',
      use_sandbox: true,
      ui_config: { accent_color: '#676FFF', theme: 'dark' },
      payment_method: 'credit_debit_card',
    })
    expect(res.status).toBe(200)
    const url = new URL(res.body.signed_url)
    expect(url.origin).toBe('https://buy-sandbox.moonpay.com')
    expect(Object.fromEntries(url.searchParams)).toEqual({
      apiKey: MOONPAY_PUBLISHABLE_KEY,
      currencyCode: 'eth',
      walletAddress: alice.ethereum,
      externalTransactionId: res.body.external_transaction_id,
      quoteCurrencyAmount: '0.05',
      colorCode: '#676FFF',
      theme: 'dark',
      paymentMethod: 'credit_debit_card',
      signature: expect.any(String),
    })
    expect(verifies(res.body.signed_url, MOONPAY_SECRET_KEY)).toBe(true)
    expect(verifies(res.body.signed_url, 'sk_test_other')).toBe(false)
  })

  it('a fresh external transaction id each time', async () => {
    const body = { address: alice.ethereum, currency_code: 'eth', use_sandbox: true }
    const [a, b] = await Promise.all([sign(body), sign(body)])
    expect(a.body.external_transaction_id).toMatch(/^[0-9a-f-]{36}$/)
    expect(a.body.external_transaction_id).not.toBe(b.body.external_transaction_id)
  })

  it('Solana wallets take Solana currencies; a linked external wallet is the user’s too', async () => {
    const sol = await sign({ address: alice.solana, currency_code: 'usdc_sol', use_sandbox: true })
    expect(sol.status).toBe(200)
    expect(new URL(sol.body.signed_url).searchParams.get('walletAddress')).toBe(alice.solana)
    const external = await linkExternalWallet(t, alice.userId, 'ethereum')
    const ext = await sign({ address: external, currency_code: 'eth_base', use_sandbox: true })
    expect(ext.status).toBe(200)
    expect(verifies(ext.body.signed_url, MOONPAY_SECRET_KEY)).toBe(true)
  })

  it('refuses a currency of the other chain: FUNDING_INVALID_DATA', async () => {
    for (const [address, currency_code] of [
      [alice.ethereum, 'sol'],
      [alice.solana, 'eth'],
    ]) {
      const res = await sign({ address, currency_code, use_sandbox: true })
      expect(res).toMatchObject({ status: 400, body: { code: 'FUNDING_INVALID_DATA' } })
    }
  })

  it("refuses use_sandbox other than the app's key kind", async () => {
    const res = await sign({ address: alice.ethereum, currency_code: 'eth', use_sandbox: false })
    expect(res).toMatchObject({ status: 400, body: { code: 'FUNDING_INVALID_DATA' } })
    expect(res.body.message).toContain('sandbox')
  })
})

describe('refusals', () => {
  it('no session: 401', async () => {
    const res = await sign({ address: alice.ethereum, currency_code: 'eth', use_sandbox: true }, '')
    expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  })

  it('bad payloads: 400 naming the field', async () => {
    const good = { address: alice.ethereum, currency_code: 'eth', use_sandbox: true }
    for (const body of [
      { ...good, address: undefined },
      { ...good, currency_code: 'ETH; DROP' },
      { ...good, use_sandbox: 'yes' },
      { ...good, quote_currency_amount: '1e5' },
      { ...good, quote_currency_amount: '-1' },
      { ...good, ui_config: { accent_color: 'red' } },
      { ...good, payment_method: 'paypal' },
    ]) {
      const res = await sign(body)
      expect(res.status, JSON.stringify(body)).toBe(400)
      expect(res.body.code).toBe('INVALID_PAYLOAD')
    }
  })

  it('an app without a MoonPay secret key: 404 ONRAMP_NOT_CONFIGURED', async () => {
    const other = await t.createApp({ funding: allFundingOptions })
    const login = await t.login('bob@example.com', { appId: other.id })
    const res = await sign(
      { address: alice.ethereum, currency_code: 'eth', use_sandbox: true },
      login.token ?? '',
      other.id,
    )
    expect(res).toMatchObject({ status: 404, body: { code: 'ONRAMP_NOT_CONFIGURED' } })
  })

  it('funding off: FUNDING_NOT_ENABLED; MoonPay not offered: FUNDING_METHOD_NOT_ENABLED', async () => {
    const body = { address: alice.ethereum, currency_code: 'eth', use_sandbox: true }
    await setAppSettings(t, t.app.id, { funding: { ...allFundingOptions, enabled: false } })
    expect(await sign(body)).toMatchObject({
      status: 403,
      body: { code: 'FUNDING_NOT_ENABLED', message: 'Wallet funding is not enabled' },
    })
    await setAppSettings(t, t.app.id, {
      funding: { ...allFundingOptions, options: [{ method: 'manual', provider: null }] },
    })
    expect(await sign(body)).toMatchObject({
      status: 403,
      body: { code: 'FUNDING_METHOD_NOT_ENABLED' },
    })
    await setAppSettings(t, t.app.id, { funding: allFundingOptions })
    expect((await sign(body)).status).toBe(200)
  })
})
