import { describe, expect, inject, it } from 'vitest'
import { userId } from './browser.ts'
import {
  emailLogin,
  enterPhone,
  openApp,
  smsSignUp,
  unique,
  uniquePhone,
  useBrowser,
} from './gates-helpers.ts'

// Account transfer and the user limit in the demo (spec 02 "Account
// transfer", "Allowlist and limit screens").

const { transferAppId, limitAppId } = inject('e2e')
const browser = useBrowser()

describe('account transfer (spec 02 "Account transfer")', () => {
  /** B logs in by email and links `phone`: the transfer screen opens. */
  async function linkTakenPhone(phone: string) {
    const { context, page } = await openApp(browser(), transferAppId)
    const email = `b-${unique()}@example.com`
    const login = await emailLogin(page, email)
    await login.waitFor({ state: 'detached', timeout: 30_000 })
    await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(email)
    await page.getByRole('button', { name: 'Link phone' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Connect your phone' }).waitFor()
    await enterPhone(page, dialog, phone)
    await dialog.getByRole('heading', { name: 'Transfer account?' }).waitFor()
    await dialog.getByText(`${phone} is already the login method of another account`).waitFor()
    return { context, page, dialog, email }
  }

  it("moves A's only phone to B: Continue → 'Check assets first' → 'Transfer and delete account' → 'Success!' → closes after 1 s", async () => {
    const phone = uniquePhone()
    const a = await openApp(browser(), transferAppId)
    await smsSignUp(a.page, phone)
    const aId = await userId(a.page)

    // The demo gives every user an embedded Ethereum wallet on login: A has one.
    const aWallet =
      (await a.page.getByTestId('wallet-ethereum-0').locator('code').textContent()) ?? ''

    const b = await linkTakenPhone(phone)
    const bId = await userId(b.page)
    // A has a wallet: the prompt only leads on (spec 02 §2), the destructive button comes last.
    expect(
      await b.dialog.getByRole('button', { name: 'Transfer and delete account' }).count(),
    ).toBe(0)
    await b.dialog.getByRole('button', { name: 'Continue' }).click()
    await b.dialog.getByRole('heading', { name: 'Check assets first' }).waitFor()
    await b.dialog.getByText(aWallet).waitFor()
    // The demo's default chain is mainnet: Etherscan.
    expect(
      await b.dialog.getByRole('link', { name: 'View on explorer' }).getAttribute('href'),
    ).toBe(`https://etherscan.io/address/${aWallet}`)
    await b.dialog.getByRole('button', { name: 'Copy address' }).waitFor()
    await b.dialog.getByRole('button', { name: 'Continue' }).click()
    await b.dialog.getByRole('heading', { name: 'Delete the other account?' }).waitFor()
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
    const a = await openApp(browser(), transferAppId)
    await smsSignUp(a.page, phone)
    const aId = await userId(a.page)

    const b = await linkTakenPhone(phone)
    // 'No thanks' is the focused default: Enter declines, it never deletes (issue 16, item 7b).
    const decline = b.dialog.getByRole('button', { name: 'No thanks' })
    await expect
      .poll(() => decline.evaluate((button) => document.activeElement === button))
      .toBe(true)
    await b.page.keyboard.press('Enter')
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
    const first = await openApp(browser(), limitAppId)
    const one = await emailLogin(first.page, `first-${unique()}@example.com`)
    await one.waitFor({ state: 'detached', timeout: 30_000 })
    await first.page.getByTestId('user-id').waitFor()
    await first.context.close()

    const { context, page } = await openApp(browser(), limitAppId)
    const dialog = await emailLogin(page, `second-${unique()}@example.com`)
    await dialog.getByRole('heading', { name: 'Unable to sign in' }).waitFor()
    await dialog.getByRole('button', { name: 'Go back' }).click()
    await dialog.getByRole('heading', { name: 'Log in or sign up' }).waitFor()
    expect(await page.getByTestId('user-id').count()).toBe(0)
    await context.close()
  })
})
