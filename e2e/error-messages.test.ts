import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail } from './browser.ts'
import { waitForModalClosed } from './wallet-helpers.ts'

// Tracker issue 16, item 4: errors that say what happened and what to do, as
// a newcomer meets them in the demo. (The passkey cases are in passkey.test.ts.)

const { serverUrl, demoUrl } = inject('e2e')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

describe('errors that say something', () => {
  it('an invalid email says so once the user presses Enter, not only by greying out Submit', async () => {
    const page = await browser.newPage()
    await page.goto(demoUrl)
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    const dialog = page.getByRole('dialog')
    const email = dialog.getByRole('textbox', { name: 'Email address' })
    await email.fill('alice@example')
    // While typing, only Submit says it: an unfinished address is no mistake yet.
    expect(await dialog.getByRole('alert').count()).toBe(0)
    expect(await dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(true)
    await email.press('Enter')
    await dialog
      .getByRole('alert')
      .filter({ hasText: 'Please enter a valid email address.' })
      .waitFor()
    expect(await email.getAttribute('aria-invalid')).toBe('true')
    // Fixed: the message goes, Submit comes back.
    await email.fill('alice@example.com')
    expect(await dialog.getByRole('alert').count()).toBe(0)
    expect(await dialog.getByRole('button', { name: 'Submit' }).isDisabled()).toBe(false)
    await page.close()
  })

  it('unlinking the only login method says why not, and what to do first', async () => {
    const address = uniqueEmail('only-method')
    const context = await browser.newContext()
    const page = await context.newPage()
    const dialog = await logInToDemo(page, { serverUrl, demoUrl }, address)
    await waitForModalClosed(dialog)
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    await page.getByRole('button', { name: `Unlink email ${address}` }).click()
    await page
      .getByRole('alert')
      .filter({
        hasText: "You can't remove your only login method. Link another login method first.",
      })
      .waitFor()
    expect(await page.getByText('Something went wrong').count()).toBe(0)
    // Still linked.
    await page.getByRole('button', { name: `Unlink email ${address}` }).waitFor()
    await context.close()
  })
})
