import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, expect, inject } from 'vitest'
import { launchChromium, readCode, readSmsCode, typeCode } from './browser.ts'

// Shared by the gates' browser tests (gates.test.ts, account-transfer.test.ts),
// in the demo against the real server (spec 02 "Allowlist and limit screens",
// "Terms consent", "Account transfer"):
// - gatesAppId: email + SMS, terms required, allowlist of the domain
//   invited.example and the address guest.list@example.com;
// - transferAppId: email + SMS, no gates;
// - limitAppId: email, at most 1 user.

const { serverUrl, demoUrl } = inject('e2e')
const appUrl = (appId: string) => `${demoUrl}/?appId=${appId}`

export const unique = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 7)}`
export const uniquePhone = () =>
  `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`

/** One Chromium for the calling test file, launched before its tests and closed after. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await launchChromium()
  })
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (!browser) throw new Error('the browser is launched in beforeAll')
    return browser
  }
}

export async function openApp(browser: Browser, appId: string) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(appUrl(appId))
  return { context, page }
}

/** Log in → email → the code from the dev mailbox. Returns the dialog. */
export async function emailLogin(page: Page, email: string): Promise<Locator> {
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  const dialog = page.getByRole('dialog')
  const sentAfter = Math.floor(Date.now() / 1000) - 1
  await dialog.getByRole('textbox', { name: /email/i }).fill(email)
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor()
  await typeCode(page, await readCode(serverUrl, email, sentAfter))
  return dialog
}

/** The phone input (landing or 'Connect your phone') → the code from the dev SMS outbox. */
export async function enterPhone(page: Page, dialog: Locator, phone: string) {
  const sentAfter = Math.floor(Date.now() / 1000) - 1
  await dialog.getByRole('textbox', { name: 'Phone number' }).fill(phone.slice(2))
  await dialog.getByRole('button', { name: 'Continue with SMS' }).click()
  await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor()
  await typeCode(page, await readSmsCode(serverUrl, phone, sentAfter))
}

export async function smsSignUp(page: Page, phone: string) {
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await enterPhone(page, dialog, phone)
  await dialog.waitFor({ state: 'detached', timeout: 30_000 })
  await expect.poll(() => page.getByTestId('user-phone').textContent()).toBe(phone)
}
