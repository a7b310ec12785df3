import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'

// Coinbase Onramp in the browser (spec 03 §4 "Coinbase-style onramp
// status", §7 "Card on-ramp"): the server mints a session token with the
// app's CDP key at the local Coinbase (packages/server/src/test/fake-coinbase.ts,
// started by the global setup, ./coinbase-setup.ts), the popup opens the pay
// URL, and the modal asks our server every 1.5 s (after 8 s) for the status
// Coinbase lists under the session's partnerUserRef.
const { serverUrl, demoUrl, coinbaseAppId, coinbase } = inject('e2e')

let browser: Browser

beforeAll(async () => {
  browser = await launchChromium()
}, 60_000)
afterAll(async () => {
  await browser?.close()
})

/** A context whose Coinbase pay host is a stand-in page. */
async function coinbaseContext(): Promise<BrowserContext> {
  const context = await browser.newContext()
  await context.route(`${coinbase.payUrl}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><title>Coinbase</title><h1>Coinbase Onramp (test page)</h1>',
    }),
  )
  return context
}

/** Coinbase lists a purchase under the session (what it does once the user buys). */
async function purchase(partnerUserRef: string, status: string) {
  const query = new URLSearchParams({ partnerUserRef, status })
  const response = await fetch(`${coinbase.controlUrl}/transactions?${query}`, { method: 'POST' })
  expect(response.status).toBe(204)
}

/** The status reads that reached Coinbase for this session so far. */
async function statusReads(partnerUserRef: string): Promise<number> {
  const requests = (await (await fetch(`${coinbase.controlUrl}/requests`)).json()) as Array<{
    path: string
  }>
  return requests.filter((r) => r.path.includes(`/buy/user/${partnerUserRef}/transactions`)).length
}

const status = (dialog: Locator) => dialog.locator('.lk-fund-status')

/** Keeps every text the status screen shows from now on (window.seenStatus), however briefly. */
async function recordStatusTexts(page: Page) {
  await page.evaluate(() => {
    const seen: string[] = []
    ;(window as { seenStatus?: string[] }).seenStatus = seen
    const note = () => {
      for (const el of document.querySelectorAll('.lk-fund-status')) {
        const text = el.textContent ?? ''
        if (seen.at(-1) !== text) seen.push(text)
      }
    }
    note()
    new MutationObserver(note).observe(document.body, {
      subtree: true,
      childList: true,
      characterData: true,
    })
  })
}

/** On Base, one of the chooser's Coinbase buttons: the popup and the session's parameters. */
async function open(page: Page, name: RegExp) {
  await page.getByLabel('Funding chain').selectOption('base')
  await page.getByRole('button', { name: 'Fund Ethereum wallet' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('heading', { name: 'Add funds to your E2E Coinbase wallet' }).waitFor({
    timeout: 30_000,
  })
  const button = dialog.getByRole('button', { name })
  await expect.poll(() => button.isEnabled(), { timeout: 30_000 }).toBe(true)
  const opened = page.waitForEvent('popup')
  await button.click()
  const popup = await opened
  await popup.waitForURL((url) => url.href.startsWith(coinbase.payUrl), { timeout: 10_000 })
  const params = new URL(popup.url()).searchParams
  const ref = params.get('partnerUserRef') ?? ''
  expect(ref).toMatch(/^[A-Za-z0-9_-]{8,64}$/)
  return { dialog, popup, params, ref }
}

describe('Coinbase Onramp', () => {
  let page: Page

  beforeAll(async () => {
    page = await (await coinbaseContext()).newPage()
    const url = `${demoUrl}/?appId=${coinbaseAppId}`
    const dialog = await logInToDemo(page, { serverUrl, demoUrl: url }, uniqueEmail('coinbase'))
    await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
  }, 60_000)

  it("'Pay with card': the pay URL in the popup, 'In Progress' while pending, then success", async () => {
    const address = await walletAddress(page)
    const { dialog, popup, params, ref } = await open(page, /^Pay with card/)
    expect(new URL(popup.url()).pathname).toBe('/buy/select-asset')
    expect(params.get('sessionToken')).toBeTruthy()
    expect(params.get('defaultNetwork')).toBe('base')
    expect(params.get('defaultAsset')).toBe('ETH')
    expect(params.get('presetCryptoAmount')).toBe('0.5')
    expect(params.get('defaultExperience')).toBe('buy')
    expect(popup.url()).not.toContain(address)

    await dialog.getByRole('heading', { name: 'Fund account' }).waitFor()
    await expect.poll(() => status(dialog).textContent()).toContain('In Progress')
    expect(await status(dialog).textContent()).toContain(
      'Go back to Coinbase to finish funding your account.',
    )
    // Pending at Coinbase (the purchase is under way): the status is read, still in progress.
    await purchase(ref, 'ONRAMP_TRANSACTION_STATUS_IN_PROGRESS')
    await expect.poll(() => statusReads(ref), { timeout: 20_000 }).toBeGreaterThan(0)
    expect(await status(dialog).textContent()).toContain('In Progress')

    await purchase(ref, 'ONRAMP_TRANSACTION_STATUS_SUCCESS')
    await expect
      .poll(() => status(dialog).textContent(), { timeout: 15_000 })
      .toContain("You've funded your account!")
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    await expect.poll(() => page.getByTestId('fund-result').textContent()).toBe('Ethereum: funded')
    await popup.close()
  })

  it("'Transfer from an exchange': the popup closed with nothing bought returns to the chooser after 3 reads", async () => {
    const { dialog, popup, params, ref } = await open(page, /^Transfer from an exchange/)
    expect(params.get('defaultExperience')).toBe('send')
    await dialog.getByRole('heading', { name: 'Fund account' }).waitFor()
    await recordStatusTexts(page)
    await popup.close()
    // Closed, the status still being read: 'In Progress' without "Go back to Coinbase"
    // (spec 03 §2: 'In Progress' and success only), noticed during the 8 s start delay.
    await expect
      .poll(() => status(dialog).textContent(), { timeout: 10_000 })
      .toBe('In ProgressChecking your purchase with Coinbase.')
    expect(await statusReads(ref)).toBe(0)
    expect(await dialog.getByRole('button', { name: 'Continue' }).count()).toBe(0)
    // The third pending read after the close: back to the chooser, without an error.
    await dialog
      .getByRole('heading', { name: 'Add funds to your E2E Coinbase wallet' })
      .waitFor({ timeout: 20_000 })
    expect(await statusReads(ref)).toBeGreaterThanOrEqual(3)
    expect(await dialog.getByRole('alert').count()).toBe(0)
    // Nothing was bought: no 'Processing payment' and no email promise, at any moment.
    const seen = await page.evaluate(() => (window as { seenStatus?: string[] }).seenStatus ?? [])
    expect(seen).toContain('In ProgressChecking your purchase with Coinbase.')
    expect(seen.join(' ')).not.toMatch(/Processing payment|email/)
  })
})
