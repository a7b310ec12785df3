import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  launchChromium,
  logInToDemo,
  readCode,
  typeCode,
  uniqueEmail,
  walletAddress,
} from './browser.ts'

// The embedded Solana wallet as the Wallet Standard wallet "Latchkey", as a
// Solana app sees it: the demo's Wallet Standard panel lists the page's
// wallets from @wallet-standard/app and calls only the standard features.
const { serverUrl, demoUrl } = inject('e2e')
// apps/demo/src/components/WalletStandardPanel.tsx
const MESSAGE = 'Hello from a Wallet Standard app'

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

const standardAccount = async (page: Page) =>
  ((await page.getByTestId('standard-account').locator('code').textContent()) ?? '').trim()

/** Waits until the panel shows `address` as the connected account. */
const accountShown = (page: Page, address: string) =>
  page.getByTestId('standard-account').locator('code', { hasText: address }).waitFor()

describe('the embedded Solana wallet over the Wallet Standard', () => {
  it('is listed as "Latchkey"; connects to the embedded wallet and signs a message the address verifies', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    const dialog = await logInToDemo(page, { serverUrl, demoUrl }, uniqueEmail('standard'))
    await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    const solana = await walletAddress(page, 'wallet-solana-0')
    await page.getByTestId('standard-wallets').getByText('Latchkey', { exact: true }).waitFor()

    await page.getByRole('button', { name: 'Standard: connect Latchkey' }).click()
    await accountShown(page, solana)
    // Already logged in with a Solana wallet: nothing opens.
    expect(await page.getByRole('dialog').count()).toBe(0)

    await page.getByRole('button', { name: 'Standard: sign message' }).click()
    const signDialog = page.getByRole('dialog')
    await signDialog.getByText(MESSAGE).waitFor()
    await signDialog.getByRole('button', { name: 'Sign and continue' }).click()
    await signDialog.waitFor({ state: 'detached', timeout: 30_000 })
    const signature = page.getByTestId('standard-signature').locator('code')
    await signature.waitFor({ timeout: 30_000 })
    const signed = base64.decode(((await signature.textContent()) ?? '').trim())
    expect(signed).toHaveLength(64)
    const message = new TextEncoder().encode(MESSAGE)
    expect(ed25519.verify(signed, message, base58.decode(solana))).toBe(true)
    expect(ed25519.verify(signed, new TextEncoder().encode('other'), base58.decode(solana))).toBe(
      false,
    )
    await context.close()
  })

  it('connecting while logged out logs in through the modal; logging out empties the accounts', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(demoUrl)
    await page.getByTestId('standard-wallets').getByText('Latchkey', { exact: true }).waitFor()
    expect(await standardAccount(page)).toBe('not connected')

    await page.getByRole('button', { name: 'Standard: connect Latchkey' }).click()
    const dialog = page.getByRole('dialog')
    const email = uniqueEmail('standard-login')
    const sentAfter = Math.floor(Date.now() / 1000) - 1
    await dialog.getByRole('textbox', { name: /email/i }).fill(email)
    await dialog.getByRole('button', { name: 'Submit' }).click()
    await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor()
    await typeCode(page, await readCode(serverUrl, email, sentAfter))
    // The demo's createOnLogin makes the Solana wallet the connection returns.
    await dialog.waitFor({ state: 'detached', timeout: 40_000 })
    const solana = await walletAddress(page, 'wallet-solana-0')
    await accountShown(page, solana)

    await page.getByRole('button', { name: 'Log out' }).click()
    await page.getByRole('button', { name: 'Log in' }).waitFor()
    await accountShown(page, 'not connected')
    await context.close()
  })
})
