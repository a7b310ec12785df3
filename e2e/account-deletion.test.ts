import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, userId } from './browser.ts'

// Tracker issue 15, item 9: a user deletes their account from the demo. The
// enclave asks the server (a key route), the modal confirms, the demo is
// logged out; the same email then signs up as a new user with a new wallet.
const { serverUrl, demoUrl, appId } = inject('e2e')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

/** Logs in (a new user gets its wallets), waits for the demo's user panel; its id and wallet. */
async function logIn(page: Page, email: string) {
  const dialog = await logInToDemo(page, { serverUrl, demoUrl }, email)
  await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
  await dialog.waitFor({ state: 'detached', timeout: 10_000 })
  const wallet =
    (await page.getByTestId('wallet-ethereum-0').locator('code').textContent())?.trim() ?? ''
  return { id: await userId(page), wallet }
}

describe('account deletion in the demo', () => {
  it("'Delete account' → confirm → logged out; the same email comes back as a new user with a new wallet", async () => {
    const email = uniqueEmail('delete')
    const context = await browser.newContext()
    const page = await context.newPage()
    const before = await logIn(page, email)
    expect(before.id).toMatch(/^did:latchkey:/)
    expect(before.wallet).toMatch(/^0x[0-9a-fA-F]{40}$/)

    const token = await page.evaluate(() => localStorage.getItem('latchkey:token'))
    expect(token).toBeTruthy()

    await page.getByRole('button', { name: 'Delete account', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Delete your account?' }).waitFor()
    await dialog
      .getByText("Your embedded wallet will be deleted from this app's servers.", { exact: false })
      .waitFor()
    // Cancel is the focused button, not the destructive one.
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel')
    const deleted = page.waitForResponse((r) => r.url().endsWith('/api/v1/users/me/delete'))
    await dialog.getByRole('button', { name: 'Delete account' }).click()
    // The enclave made the request, from its own origin.
    const response = await deleted
    expect(response.status()).toBe(200)
    expect(new URL(response.url()).origin).toBe(new URL(serverUrl).origin)
    expect(response.frame().url()).toContain('/embedded-wallets')
    await dialog.getByRole('heading', { name: 'Account deleted' }).waitFor()
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    await page.getByRole('button', { name: 'Log in' }).waitFor()
    expect(await page.getByTestId('user-id').count()).toBe(0)
    // The session is over here and at the server: the old access token is refused.
    expect(await page.evaluate(() => localStorage.getItem('latchkey:token'))).toBeNull()
    const me = await fetch(`${serverUrl}/api/v1/users/me`, {
      headers: { authorization: `Bearer ${token}`, 'latchkey-app-id': appId },
    })
    expect(me.status).toBe(401)

    const after = await logIn(page, email)
    expect(after.id).not.toBe(before.id)
    expect(after.wallet).not.toBe(before.wallet)
    await context.close()
  })
})
