import type { Browser, Page } from 'playwright-core'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail } from './browser.ts'

// Cloud backup end to end: the demo, the Latchkey server, the enclave, and the
// local fake Google (OAuth consent page + Drive API) and CloudKit (sign-in
// page + records API) the global setup started, all over real HTTP.

const { serverUrl, demoUrl } = inject('e2e')
const MESSAGE = 'Hello from the Latchkey demo'

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

const ethereumAddress = async (page: Page) =>
  (await page.getByTestId('wallet-ethereum-0').locator('code').innerText()).trim()

/** On the provider's page: pick an account (its button carries data-account). */
async function choose(page: Page, account: string) {
  await page.locator(`[data-account="${account}"]`).click()
  await page.waitForURL((url) => url.href.startsWith(demoUrl), { timeout: 30_000 })
}

/** Backs the wallet up to `provider` from the demo's "Backup options". */
async function backUp(page: Page, provider: 'Google Drive' | 'iCloud', account: string) {
  await page.getByRole('button', { name: 'Backup options', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('heading', { name: 'Update backup method' }).waitFor()
  await dialog.getByRole('button', { name: `Back up to ${provider}` }).click()
  await dialog.getByRole('heading', { name: `Back up with ${provider}` }).waitFor()
  await dialog.getByRole('button', { name: `Continue with ${provider}` }).click()
  await choose(page, account)
  // Back on the demo: the query string is gone and the backup finishes on its own.
  await page
    .getByRole('dialog')
    .getByRole('heading', { name: 'Success' })
    .waitFor({ timeout: 30_000 })
  expect(new URL(page.url()).search).toBe('')
  await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 10_000 })
}

/** A new device signs: it must first recover from `provider`; the wrong account fails, the right one works. */
async function recoverOnNewDevice(
  email: string,
  address: string,
  provider: 'Google Drive' | 'iCloud',
  accounts: { wrong: string; right: string },
) {
  const context = await browser.newContext()
  const page = await context.newPage()
  await logIn(page, email)
  await page.getByRole('button', { name: 'Sign message', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('button', { name: 'Sign and continue' }).click()
  await dialog
    .getByRole('heading', { name: `Recover with ${provider}` })
    .waitFor({ timeout: 30_000 })
  await dialog.getByRole('button', { name: `Continue with ${provider}` }).click()
  await choose(page, accounts.wrong)
  await page
    .getByRole('heading', { name: `Recovery with ${provider} unsuccessful` })
    .waitFor({ timeout: 30_000 })
  await page
    .getByText(
      `Please verify that you are selecting the ${provider} account associated with your backup.`,
    )
    .waitFor()
  await page.getByRole('button', { name: 'Try again' }).click()
  await choose(page, accounts.right)
  await page
    .getByRole('dialog')
    .getByRole('heading', { name: 'Success' })
    .waitFor({ timeout: 30_000 })
  await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 10_000 })

  // Recovered: the same address signs, with no further prompt.
  expect(await ethereumAddress(page)).toBe(address)
  await page.getByRole('button', { name: 'Sign message', exact: true }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Sign and continue' }).click()
  await page.getByRole('dialog').waitFor({ state: 'detached', timeout: 30_000 })
  const signature = (
    await page
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
  await context.close()
}

describe('cloud backup of an embedded wallet', () => {
  it('backs up to Google Drive, then a new device recovers with the right Google account only', async () => {
    const email = uniqueEmail('drive')
    const first = await browser.newContext()
    const page = await first.newPage()
    await logIn(page, email)
    const address = await ethereumAddress(page)

    await backUp(page, 'Google Drive', 'alice@example.com')
    await expect
      .poll(() => page.getByTestId('wallet-ethereum-0').innerText())
      .toContain('Google Drive: recovered with your Google account')
    await first.close()

    await recoverOnNewDevice(email, address, 'Google Drive', {
      wrong: 'bob@example.com',
      right: 'alice@example.com',
    })
  })

  it('backs up to iCloud, then a new device recovers with the right Apple account only', async () => {
    const email = uniqueEmail('icloud')
    const first = await browser.newContext()
    const page = await first.newPage()
    await logIn(page, email)
    const address = await ethereumAddress(page)

    await backUp(page, 'iCloud', 'alice@icloud.com')
    await expect
      .poll(() => page.getByTestId('wallet-ethereum-0').innerText())
      .toContain('iCloud: recovered with your Apple account')
    await first.close()

    await recoverOnNewDevice(email, address, 'iCloud', {
      wrong: 'bob@icloud.com',
      right: 'alice@icloud.com',
    })
  })
})
