import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, readCode, readSmsCode, typeCode, userId } from './browser.ts'

// The gates around login, in the demo against the real server (spec 02
// "Allowlist and limit screens", "Terms consent", "Account transfer"):
// - gatesAppId: email + SMS, terms required, allowlist of the domain
//   invited.example and the address guest.list@example.com;
// - transferAppId: email + SMS, no gates;
// - limitAppId: email, at most 1 user.

const { serverUrl, demoUrl, gatesAppId, transferAppId, limitAppId } = inject('e2e')
const appUrl = (appId: string) => `${demoUrl}/?appId=${appId}`

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`
const uniquePhone = () => `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`

async function openApp(appId: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(appUrl(appId))
  return { context, page }
}

/** Log in → email → the code from the dev mailbox. Returns the dialog. */
async function emailLogin(page: Page, email: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  const dialog = page.getByRole('dialog')
  const sentAfter = Math.floor(Date.now() / 1000) - 1
  await dialog.getByRole('textbox', { name: /email/i }).fill(email)
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor()
  await typeCode(page, await readCode(serverUrl, email, sentAfter))
  return dialog
}

/** The phone input (landing or 'Link your phone') → the code from the dev SMS outbox. */
async function enterPhone(page: Page, dialog: Locator, phone: string) {
  const sentAfter = Math.floor(Date.now() / 1000) - 1
  await dialog.getByRole('textbox', { name: 'Phone number' }).fill(phone.slice(2))
  await dialog.getByRole('button', { name: 'Continue with SMS' }).click()
  await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor()
  await typeCode(page, await readSmsCode(serverUrl, phone, sentAfter))
}

async function smsSignUp(page: Page, phone: string) {
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await enterPhone(page, dialog, phone)
  await dialog.waitFor({ state: 'detached', timeout: 30_000 })
  await expect.poll(() => page.getByTestId('user-phone').textContent()).toBe(phone)
}

describe('allowlist (spec 02 "Allowlist and limit screens")', () => {
  it('refuses an address not on the list, creates no user, and lets an invited one in', async () => {
    const { context, page } = await openApp(gatesAppId)
    const outsider = `someone-${unique()}@elsewhere.example`
    for (let attempt = 0; attempt < 2; attempt++) {
      const dialog = await emailLogin(page, outsider)
      await dialog.getByRole('heading', { name: "You don't have access to this app" }).waitFor()
      await dialog.getByText('Have you been invited?').waitFor()
      // No session, and (the second time round) no user was made by the first try.
      expect(await page.evaluate(() => localStorage.getItem('latchkey:refresh_token'))).toBeNull()
      await dialog.getByRole('button', { name: 'Try another account' }).click()
      await dialog.getByRole('heading', { name: 'Log in or sign up' }).waitFor()
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
    }

    // An address on the allowlist's domain gets in (and meets the terms: accepted here).
    const invited = `friend-${unique()}@invited.example`
    const dialog = await emailLogin(page, invited)
    await dialog.getByRole('heading', { name: 'One last step' }).waitFor()
    await dialog.getByRole('button', { name: 'Accept' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(invited)
    await context.close()
  })
})

describe('terms consent (spec 02 "Terms consent")', () => {
  it("'No thanks' logs the new user out; the next login asks again", async () => {
    const { context, page } = await openApp(gatesAppId)
    const email = `decline-${unique()}@invited.example`
    let dialog = await emailLogin(page, email)
    await dialog.getByRole('heading', { name: 'One last step' }).waitFor()
    await dialog.getByRole('button', { name: 'No thanks' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor()
    expect(await page.getByTestId('user-id').count()).toBe(0)
    expect(await page.evaluate(() => localStorage.getItem('latchkey:refresh_token'))).toBeNull()

    dialog = await emailLogin(page, email)
    await dialog.getByRole('heading', { name: 'One last step' }).waitFor()
    await context.close()
  })

  it('Accept stores the acceptance on the user; later logins are not asked', async () => {
    const { context, page } = await openApp(gatesAppId)
    const email = 'guest.list@example.com'
    const dialog = await emailLogin(page, email)
    await dialog.getByRole('heading', { name: 'One last step' }).waitFor()
    // The links open the app's pages in a new tab.
    const terms = dialog.getByRole('link', { name: 'View Terms' })
    expect(await terms.getAttribute('href')).toBe(`${demoUrl}/terms.html`)
    expect(await terms.getAttribute('target')).toBe('_blank')
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('link', { name: 'View Privacy Policy' }).click(),
    ])
    await tab.waitForLoadState()
    expect(tab.url()).toBe(`${demoUrl}/privacy.html`)
    await tab.close()

    await dialog.getByRole('button', { name: 'Accept' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await expect.poll(() => page.getByTestId('user-terms').textContent()).toBe('Accepted')
    const id = await userId(page)

    // Reload: still logged in, still accepted (the server has it), no terms screen.
    await page.reload()
    await expect.poll(() => page.getByTestId('user-terms').textContent()).toBe('Accepted')
    expect(await page.getByRole('dialog').count()).toBe(0)

    // Log out and in again: straight through.
    await page.getByRole('button', { name: 'Log out' }).click()
    const again = await emailLogin(page, email)
    await again.waitFor({ state: 'detached', timeout: 30_000 })
    expect(await userId(page)).toBe(id)
    await context.close()
  })
})

describe('account transfer (spec 02 "Account transfer")', () => {
  /** B logs in by email and links `phone`: the transfer screen opens. */
  async function linkTakenPhone(phone: string) {
    const { context, page } = await openApp(transferAppId)
    const email = `b-${unique()}@example.com`
    const login = await emailLogin(page, email)
    await login.waitFor({ state: 'detached', timeout: 30_000 })
    await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(email)
    await page.getByRole('button', { name: 'Link phone' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Link your phone' }).waitFor()
    await enterPhone(page, dialog, phone)
    await dialog.getByRole('heading', { name: 'Transfer account?' }).waitFor()
    await dialog.getByText(`${phone} is already the login method of another account`).waitFor()
    return { context, page, dialog, email }
  }

  it("moves A's only phone to B: 'Transfer and delete account' → 'Success!' → closes after 1 s", async () => {
    const phone = uniquePhone()
    const a = await openApp(transferAppId)
    await smsSignUp(a.page, phone)
    const aId = await userId(a.page)

    // The demo gives every user an embedded Ethereum wallet on login: A has one.
    const aWallet =
      (await a.page.getByTestId('wallet-ethereum-0').locator('code').textContent()) ?? ''

    const b = await linkTakenPhone(phone)
    const bId = await userId(b.page)
    await b.dialog.getByRole('button', { name: 'Check assets first' }).click()
    await b.dialog.getByRole('heading', { name: 'Check assets first' }).waitFor()
    await b.dialog.getByText(aWallet).waitFor()
    // The demo's default chain is mainnet: Etherscan.
    expect(
      await b.dialog.getByRole('link', { name: 'View on explorer' }).getAttribute('href'),
    ).toBe(`https://etherscan.io/address/${aWallet}`)
    await b.dialog.getByRole('button', { name: 'Copy address' }).waitFor()
    await b.dialog.getByRole('button', { name: 'Continue' }).click()
    await b.dialog.getByRole('button', { name: 'Transfer and delete account' }).click()
    await b.dialog.getByRole('button', { name: 'Success!' }).waitFor()
    const shownAt = Date.now()
    await b.dialog.waitFor({ state: 'detached', timeout: 5_000 })
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(700)
    await expect.poll(() => b.page.getByTestId('user-phone').textContent()).toBe(phone)
    expect(await userId(b.page)).toBe(bId)
    await expect.poll(() => b.page.getByTestId('user-email').textContent()).toBe(b.email)

    // A was deleted: the phone now logs in as B.
    await a.page.reload()
    await a.page.getByRole('button', { name: 'Log in', exact: true }).waitFor()
    await smsSignUp(a.page, phone)
    expect(await userId(a.page)).toBe(bId)
    expect(bId).not.toBe(aId)
    await a.context.close()
    await b.context.close()
  })

  it("'No thanks' leaves both accounts as they were", async () => {
    const phone = uniquePhone()
    const a = await openApp(transferAppId)
    await smsSignUp(a.page, phone)
    const aId = await userId(a.page)

    const b = await linkTakenPhone(phone)
    await b.dialog.getByRole('button', { name: 'No thanks' }).click()
    await b.dialog.waitFor({ state: 'detached' })
    expect(await b.page.getByTestId('user-phone').textContent()).toBe('—')

    await a.page.reload()
    await expect.poll(() => a.page.getByTestId('user-phone').textContent()).toBe(phone)
    expect(await userId(a.page)).toBe(aId)
    await a.context.close()
    await b.context.close()
  })
})

describe('user limit (spec 02 "Allowlist and limit screens")', () => {
  it("refuses the second sign-up with 'Unable to sign in'; 'Go back' returns to the landing", async () => {
    const first = await openApp(limitAppId)
    const one = await emailLogin(first.page, `first-${unique()}@example.com`)
    await one.waitFor({ state: 'detached', timeout: 30_000 })
    await first.page.getByTestId('user-id').waitFor()
    await first.context.close()

    const { context, page } = await openApp(limitAppId)
    const dialog = await emailLogin(page, `second-${unique()}@example.com`)
    await dialog.getByRole('heading', { name: 'Unable to sign in' }).waitFor()
    await dialog.getByRole('button', { name: 'Go back' }).click()
    await dialog.getByRole('heading', { name: 'Log in or sign up' }).waitFor()
    expect(await page.getByTestId('user-id').count()).toBe(0)
    await context.close()
  })
})
