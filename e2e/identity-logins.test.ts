import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, readCode, readSmsCode, typeCode, uniqueEmail } from './browser.ts'

// Identity logins beyond email, in the demo against the real server: SMS
// through the dev outbox, and a guest who gets wallets, links an email and keeps its id.

const { serverUrl, demoUrl } = inject('e2e')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

/** A US number nobody else in this run uses (415-555-xxxx is a valid NANP shape). */
const uniquePhone = () => `+1415555${String(Math.floor(Math.random() * 10_000)).padStart(4, '0')}`

async function userId(page: Page) {
  return (await page.getByTestId('user-id').innerText()).trim()
}

describe('identity logins in the demo', () => {
  it('logs in with an SMS code from the dev outbox', async () => {
    const phone = uniquePhone()
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(demoUrl)
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    const dialog = page.getByRole('dialog')
    // The landing screen draws the phone input beside the email one; US by default.
    await dialog.getByRole('textbox', { name: 'Phone number' }).fill(phone.slice(2))
    await dialog.getByRole('button', { name: 'Continue with SMS' }).click()
    await dialog.getByRole('heading', { name: 'Enter confirmation code' }).waitFor()
    await expect.poll(() => dialog.innerText()).toContain(phone)
    await typeCode(page, await readSmsCode(serverUrl, phone))
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await expect.poll(() => page.getByTestId('user-phone').innerText()).toBe(phone)
    const id = await userId(page)

    // Change the number: the code goes to the new one (old, new and code, spec 01 §5).
    const next = uniquePhone()
    await page.getByRole('button', { name: `Change phone ${phone}` }).click()
    await dialog.getByRole('heading', { name: 'Update your phone number', exact: true }).waitFor()
    await dialog.getByRole('textbox', { name: 'Phone number' }).fill(next.slice(2))
    await dialog.getByRole('button', { name: 'Continue with SMS' }).click()
    await dialog.getByRole('heading', { name: 'Enter confirmation code' }).waitFor()
    await typeCode(page, await readSmsCode(serverUrl, next))
    await dialog.getByText('Your account is updated.').waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    await expect.poll(() => page.getByTestId('user-phone').innerText()).toBe(next)
    expect(await userId(page)).toBe(id)
    await context.close()
  })

  it('a guest links an email and keeps its user id', async () => {
    const email = uniqueEmail('guest')
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(demoUrl)
    await page.getByRole('button', { name: 'Continue as guest' }).click()
    await page.getByRole('heading', { name: "You're a guest" }).waitFor({ timeout: 30_000 })
    const guestId = await userId(page)
    // The guest gets the demo's wallets on login (createOnLogin 'all-users'); the modal closes after.
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Welcome to E2E Demo' }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    const wallet = await page.getByTestId('wallet-ethereum-0').locator('code').textContent()

    await page.getByRole('button', { name: 'Link email' }).click()
    const sentAfter = Math.floor(Date.now() / 1000) - 1
    await dialog.getByRole('textbox', { name: /email/i }).fill(email)
    await dialog.getByRole('button', { name: 'Submit' }).click()
    await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor()
    await typeCode(page, await readCode(serverUrl, email, sentAfter))
    await dialog.getByText('Your account is linked.').waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })

    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    expect(await userId(page)).toBe(guestId)
    await expect.poll(() => page.getByTestId('user-email').innerText()).toBe(email)
    // Its wallet stays with it.
    expect(await page.getByTestId('wallet-ethereum-0').locator('code').textContent()).toBe(wallet)

    // A reload keeps the now-real user.
    await page.reload()
    await page.getByRole('heading', { name: "You're logged in" }).waitFor({ timeout: 30_000 })
    expect(await userId(page)).toBe(guestId)
    await context.close()
  })
})
