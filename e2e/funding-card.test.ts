import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  type FakeMoonpay,
  moonpayTransaction,
  startFakeMoonpay,
} from '../packages/core/src/test/fake-moonpay.ts'
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'

// Card on-ramp status ('Fund account', spec 03 §4) in the browser: the server
// signs the MoonPay widget URL with the app's secret, the popup opens on it,
// and the modal polls MoonPay's documented /v1/transactions/ext/{id} — here a
// local MoonPay (the server names hosts that do not resolve; this test routes
// the browser's requests for them to its own MoonPay and a stand-in widget).
const { serverUrl, demoUrl, fundingAppId, moonpay } = inject('e2e')
const SCREENSHOTS = process.env.E2E_FUNDING_SCREENSHOTS ?? '/tmp/helpers'

let browser: Browser
let fake: FakeMoonpay

beforeAll(async () => {
  ;[browser, fake] = await Promise.all([
    launchChromium(),
    startFakeMoonpay({ publishableKey: moonpay.publishableKey }),
  ])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await fake?.close()
})

/** A context whose MoonPay hosts are this test's MoonPay and a stand-in buy widget. */
async function moonpayContext(): Promise<BrowserContext> {
  const context = await browser.newContext()
  await context.route(`${moonpay.apiUrl}/**`, async (route) => {
    const url = new URL(route.request().url())
    const response = await route.fetch({ url: `${fake.url}${url.pathname}${url.search}` })
    await route.fulfill({ response })
  })
  await context.route(`${moonpay.widgetUrl}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>MoonPay</title><h1>Buy crypto (test widget)</h1>',
    }),
  )
  return context
}

async function logIn(page: Page): Promise<string> {
  const url = `${demoUrl}/?appId=${fundingAppId}`
  const dialog = await logInToDemo(page, { serverUrl, demoUrl: url }, uniqueEmail('card'))
  await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
  await dialog.waitFor({ state: 'detached', timeout: 10_000 })
  return walletAddress(page)
}

/** 'Fund Ethereum wallet' on Base → 'Pay with card': the popup and its external transaction id. */
async function payWithCard(page: Page): Promise<{ dialog: Locator; popup: Page; id: string }> {
  await page.getByLabel('Funding chain').selectOption('base')
  await page.getByRole('button', { name: 'Fund Ethereum wallet' }).click()
  const dialog = page.getByRole('dialog')
  const card = dialog.getByRole('button', { name: /^Pay with card/ })
  await expect.poll(() => card.isEnabled(), { timeout: 30_000 }).toBe(true)
  const opened = page.waitForEvent('popup')
  await card.click()
  const popup = await opened
  await popup.waitForURL((url) => url.href.startsWith(moonpay.widgetUrl), { timeout: 10_000 })
  const id = new URL(popup.url()).searchParams.get('externalTransactionId') ?? ''
  expect(id).not.toBe('')
  return { dialog, popup, id }
}

const status = (dialog: Locator) => dialog.locator('.lk-fund-status')

describe("'Pay with card' with MoonPay", () => {
  let page: Page
  let address: string

  beforeAll(async () => {
    page = await (await moonpayContext()).newPage()
    address = await logIn(page)
  }, 60_000)

  it("opens the server-signed widget, shows 'In Progress', then 'You've funded your account!'", async () => {
    const { dialog, popup, id } = await payWithCard(page)
    const widget = new URL(popup.url()).searchParams
    expect(widget.get('apiKey')).toBe(moonpay.publishableKey)
    expect(widget.get('currencyCode')).toBe('eth_base')
    expect(widget.get('walletAddress')).toBe(address)
    expect(widget.get('quoteCurrencyAmount')).toBe('0.5')
    expect(widget.get('signature')).toMatch(/^[A-Za-z0-9+/]+=*$/)

    await dialog.getByRole('heading', { name: 'Fund account' }).waitFor()
    await expect.poll(() => status(dialog).innerText()).toContain('In Progress')
    expect(await status(dialog).innerText()).toContain(
      'Go back to MoonPay to finish funding your account.',
    )
    // MoonPay answers 404 until the purchase exists: not a failure, still in progress.
    await expect.poll(() => fake.requests.length, { timeout: 15_000 }).toBeGreaterThan(0)
    expect(fake.requests[0]).toBe(`/v1/transactions/ext/${id}?apiKey=${moonpay.publishableKey}`)
    expect(await status(dialog).innerText()).toContain('In Progress')

    fake.setTransactions(id, [
      moonpayTransaction({
        externalTransactionId: id,
        status: 'completed',
        walletAddress: address,
      }),
    ])
    await expect
      .poll(() => status(dialog).innerText(), { timeout: 15_000 })
      .toContain("You've funded your account!")
    expect(await status(dialog).innerText()).toContain(
      'It may take a few minutes for the assets to appear.',
    )
    await page.screenshot({ path: `${SCREENSHOTS}/funding-card-completed.png` })
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    await expect.poll(() => page.getByTestId('fund-result').textContent()).toBe('Ethereum: funded')
    await popup.close()
  })

  it("a bank payment awaiting authorization is 'Processing payment'; a failed purchase returns to the chooser with the message", async () => {
    const { dialog, popup, id } = await payWithCard(page)
    fake.setTransactions(id, [
      moonpayTransaction({
        externalTransactionId: id,
        status: 'waitingAuthorization',
        paymentMethod: 'sepa_bank_transfer',
        cardPaymentType: null,
      }),
    ])
    await expect
      .poll(() => status(dialog).innerText(), { timeout: 15_000 })
      .toContain('Processing payment')
    expect(await status(dialog).innerText()).toContain(
      'This may take up to a few hours. You will receive an email when the purchase is complete.',
    )
    await page.screenshot({ path: `${SCREENSHOTS}/funding-card-processing.png` })

    fake.setTransactions(id, [moonpayTransaction({ externalTransactionId: id, status: 'failed' })])
    const alert = dialog.getByRole('alert')
    await alert.waitFor({ timeout: 15_000 })
    expect(await alert.innerText()).toBe(
      'Something went wrong adding funds from Moonpay. Please try again or use another method to fund your wallet.',
    )
    await dialog.getByRole('heading', { name: 'Add funds to your E2E Funding wallet' }).waitFor()
    await page.screenshot({ path: `${SCREENSHOTS}/funding-card-failed.png` })
    expect(popup.isClosed()).toBe(true)
  })
})
