import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, readCode, typeCode, uniqueEmail } from './browser.ts'

const { serverUrl, demoUrl } = inject('e2e')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

async function openDemo(page: Page) {
  await page.goto(demoUrl)
  await page.getByRole('button', { name: 'Log in' }).waitFor()
}

async function startEmailLogin(page: Page, email: string) {
  await page.getByRole('button', { name: 'Log in' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('heading', { name: 'Log in or sign up' }).waitFor()
  const sentAfter = Math.floor(Date.now() / 1000) - 1
  await dialog.getByRole('textbox', { name: /email/i }).fill(email)
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor()
  return sentAfter
}

describe('email-code login in the demo', () => {
  it('logs in with the code from the dev mailbox, stays logged in on reload, and logs out', async () => {
    const page = await browser.newPage()
    const email = uniqueEmail('alice')
    await openDemo(page)
    const sentAfter = await startEmailLogin(page, email)
    const code = await readCode(serverUrl, email, sentAfter)
    await typeCode(page, code)

    const dialog = page.getByRole('dialog')
    await dialog
      .getByText(/success/i)
      .first()
      .waitFor()
    await dialog.waitFor({ state: 'detached' })

    await expect(page.getByText(email).first().isVisible()).resolves.toBe(true)
    await expect(
      page
        .getByText(/did:latchkey:/)
        .first()
        .isVisible(),
    ).resolves.toBe(true)

    // Reload: the refresh token keeps the user logged in.
    await page.reload()
    await page.getByRole('button', { name: 'Log out' }).waitFor()
    await expect(page.getByText(email).first().isVisible()).resolves.toBe(true)

    // Log out ends the session on the server: the old refresh token is refused.
    const refreshToken = await page.evaluate(() => localStorage.getItem('latchkey:refresh_token'))
    expect(refreshToken).toBeTruthy()
    await page.getByRole('button', { name: 'Log out' }).click()
    await page.getByRole('button', { name: 'Log in' }).waitFor()
    const { appId } = inject('e2e')
    const refused = await fetch(`${serverUrl}/api/v1/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'latchkey-app-id': appId },
      body: JSON.stringify({ refresh_token: refreshToken }),
    })
    expect(refused.status).toBe(401)
    await page.close()
  })

  it('rejects a wrong code, clears the boxes, then accepts the right one', async () => {
    const page = await browser.newPage()
    const email = uniqueEmail('bob')
    await openDemo(page)
    const sentAfter = await startEmailLogin(page, email)
    const code = await readCode(serverUrl, email, sentAfter)
    const wrong = code === '000000' ? '111111' : '000000'

    await typeCode(page, wrong)
    const dialog = page.getByRole('dialog')
    await dialog.getByText('Invalid or expired verification code').waitFor()
    // After 1.4 s the boxes clear and focus returns to the first one.
    const first = dialog.getByRole('textbox', { name: 'Digit 1 of 6' })
    await expect.poll(() => first.inputValue(), { timeout: 5_000 }).toBe('')
    await expect.poll(() => first.evaluate((el) => el === document.activeElement)).toBe(true)

    await page.keyboard.type(code)
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Log out' }).waitFor()
    await expect(page.getByText(email).first().isVisible()).resolves.toBe(true)
    await page.close()
  })
})
