import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail } from './browser.ts'

// Issue 16, item 5: the backup options say what the wallet's recovery is now,
// and closing them (or the password wizard) is a choice the demo reports
// neutrally, never as an error.

const { serverUrl, demoUrl } = inject('e2e')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

async function loggedIn(): Promise<Page> {
  const page = await browser.newPage()
  const dialog = await logInToDemo(page, { serverUrl, demoUrl }, uniqueEmail('recovery-copy'))
  await dialog.waitFor({ state: 'detached', timeout: 30_000 })
  await expect
    .poll(() => page.getByTestId('wallet-ethereum-0').textContent())
    .toContain('Recoverable · Automatic')
  return page
}

describe('recovery messaging (issue 16, item 5)', () => {
  it('an automatic wallet is described as recoverable; closing the backup options is no error', async () => {
    const page = await loggedIn()
    await page.getByRole('button', { name: 'Backup options', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Update backup method' }).waitFor()
    const status = (await dialog.getByTestId('recovery-status').textContent()) ?? ''
    expect(status).toContain('Why is this necessary?')
    expect(status).toContain('Your wallet is recoverable now')
    expect(status).toContain("this app's server holds its recovery key")
    expect(status).not.toMatch(/losing/i)

    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await expect
      .poll(() => page.getByTestId('wallet-note').textContent())
      .toBe('Backup method unchanged: the dialog was closed.')
    expect(await page.getByRole('alert').count()).toBe(0)
    expect(await page.locator('#root').textContent()).not.toContain('Exited before password')
    await page.close()
  })

  it('closing the password wizard leaves a neutral note, not an error', async () => {
    const page = await loggedIn()
    await page.getByRole('button', { name: 'Set recovery password', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Create a password' }).waitFor()
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect
      .poll(() => page.getByTestId('wallet-note').textContent())
      .toBe('Recovery password unchanged: the dialog was closed.')
    expect(await page.getByRole('alert').count()).toBe(0)
    await page.close()
  })
})
