import type { Browser, Page } from 'playwright-core'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail } from './browser.ts'

const { serverUrl, demoUrl } = inject('e2e')
const MESSAGE = 'Hello from the Latchkey demo'
const PASSWORD = 'Latchkey-e2e-123!'

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

async function logIn(page: Page, email: string) {
  const dialog = await logInToDemo(page, { serverUrl, demoUrl }, email)
  await dialog.waitFor({ state: 'detached', timeout: 30_000 })
}

describe('password recovery of an embedded wallet', () => {
  it('sets a recovery password with the wizard, then recovers on a new device with it', async () => {
    const email = uniqueEmail('password')
    const first = await browser.newContext()
    const page = await first.newPage()
    await logIn(page, email)
    const address = (await page.getByTestId('wallet-ethereum-0').locator('code').innerText()).trim()

    // The five-step wizard: create, save, confirm, finalize, done.
    await page.getByRole('button', { name: 'Set recovery password', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Create a password' }).waitFor()
    await dialog.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await dialog.getByRole('heading', { name: 'Save your password' }).waitFor()
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await dialog.getByRole('heading', { name: 'Confirm your password' }).waitFor()
    await dialog.getByLabel('Confirm password').fill(`${PASSWORD}x`)
    await dialog.getByText('Passwords do not match').waitFor()
    await dialog.getByLabel('Confirm password').fill(PASSWORD)
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await dialog.getByRole('heading', { name: 'Set your password' }).waitFor()
    await dialog.getByRole('checkbox').check()
    await dialog.getByRole('button', { name: 'Set Password' }).click()
    await dialog.getByRole('heading', { name: 'Success' }).waitFor({ timeout: 30_000 })
    await dialog.locator('.lk-actions').getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect
      .poll(() => page.getByTestId('wallet-ethereum-0').innerText())
      .toContain('Password: recovered on a new device with your password')
    await first.close()

    // A new device: the wallet needs the password before it can sign.
    const second = await browser.newContext()
    const other = await second.newPage()
    await logIn(other, email)
    await other.getByRole('button', { name: 'Sign message', exact: true }).click()
    const prompt = other.getByRole('dialog')
    await prompt.getByRole('button', { name: 'Sign and continue' }).click()
    await prompt.getByRole('heading', { name: 'Enter your password' }).waitFor({ timeout: 30_000 })
    const recover = prompt.getByRole('button', { name: 'Recover your account' })
    expect(await recover.isDisabled()).toBe(true)
    await prompt.getByLabel('Password', { exact: true }).fill('not-the-password')
    await recover.click()
    await prompt
      .getByRole('alert')
      .filter({ hasText: 'Invalid recovery password, please try again.' })
      .waitFor({ timeout: 30_000 })
    await prompt.getByLabel('Password', { exact: true }).fill(PASSWORD)
    await recover.click()
    await prompt.waitFor({ state: 'detached', timeout: 30_000 })
    const signature = (
      await other
        .getByTestId('wallet-result')
        .filter({ hasText: 'Ethereum signature:' })
        .locator('code')
        .innerText()
    ).trim()
    expect(
      await verifyMessage({
        address: address as `0x${string}`,
        message: MESSAGE,
        signature: signature as `0x${string}`,
      }),
    ).toBe(true)
    await second.close()
  })
})
