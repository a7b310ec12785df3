import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium } from './browser.ts'
import { newWalletPage, waitForModalClosed, walletDemoUrl, walletRow } from './wallet-helpers.ts'
import { installTestEthereumWallet } from './wallets/ethereum.ts'

// The landing screen of the modal with the demo app's methods (email, SMS,
// Google, GitHub): what fits is drawn, GitHub overflows into 'Other socials',
// and the method this browser last logged in with is marked 'Recent'. With
// wallets first, the wallets the page discovers are landing rows; a row, or
// connector hints in the address, go straight to that wallet.

const { demoUrl, githubUrl, walletAppId } = inject('e2e')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

describe('landing screen', () => {
  it("draws email, SMS and Google, GitHub under 'Other socials', and marks the recent method", async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(demoUrl)
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    const dialog = page.getByRole('dialog')

    await dialog.getByRole('textbox', { name: /email/i }).waitFor()
    await dialog.getByRole('textbox', { name: 'Phone number' }).waitFor()
    await dialog.getByRole('button', { name: 'Continue with SMS' }).waitFor()
    await dialog.getByRole('button', { name: 'Continue with Google' }).waitFor()
    const overflow = dialog.getByRole('button', { name: 'Other socials' })
    await overflow.waitFor()
    expect(await dialog.getByRole('button', { name: 'Continue with GitHub' }).count()).toBe(0)
    expect(await dialog.getByText('Recent', { exact: true }).count()).toBe(0)

    await overflow.click()
    await dialog.getByRole('heading', { name: 'Other socials' }).waitFor()
    const github = dialog.getByRole('button', { name: 'Continue with GitHub' })
    // Log in with GitHub: the look-alike approves at once and sends the page back.
    const atGithub = page.waitForRequest((r) => r.url().startsWith(`${githubUrl}/login/oauth/`))
    await github.click()
    await atGithub
    await dialog.getByRole('heading', { name: 'Successfully connected with GitHub' }).waitFor({
      timeout: 30_000,
    })
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    await expect
      .poll(() => page.getByRole('table', { name: 'Linked accounts' }).textContent())
      .toContain('github')

    await page.getByRole('button', { name: 'Log out' }).click()
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    const recentOverflow = dialog.getByRole('button', { name: 'Other socials' })
    await recentOverflow.locator('.lk-chip', { hasText: 'Recent' }).waitFor()
    // Only the overflow row carries it: GitHub is not drawn on the landing screen.
    expect(await dialog.locator('.lk-chip', { hasText: 'Recent' }).count()).toBe(1)
    await recentOverflow.click()
    await dialog.getByRole('heading', { name: 'Other socials' }).waitFor()
    await dialog
      .getByRole('button', { name: 'Continue with GitHub' })
      .locator('.lk-chip', { hasText: 'Recent' })
      .waitFor()
    await context.close()
  })

  it('web3-first: discovered wallets are rows; a row and connector hints go straight to the wallet', async () => {
    const { context, page, dialog } = await newWalletPage(browser)
    await installTestEthereumWallet(page)
    const url = walletDemoUrl(demoUrl, walletAppId)
    await page.goto(`${url}&walletsFirst=1`)
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    // The detected wallet first, then the default list's; every wallet fits, so no wallet button.
    const row = walletRow(dialog, 'test')
    await row.waitFor()
    const rows = dialog.locator('.lk-option, .lk-input')
    await expect
      .poll(() => rows.evaluateAll((els) => els.map((el) => el.getAttribute('aria-label'))))
      .toEqual(['Test Wallet', 'MetaMask', 'Coinbase Wallet', 'Rainbow', 'Email address'])
    await row.click()
    await dialog.getByRole('heading', { name: 'Successfully connected with Test Wallet' }).waitFor()
    await waitForModalClosed(dialog)
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    await page.getByRole('button', { name: 'Log out' }).click()

    // Back from a wallet's in-app browser: the hints are removed and the login resumes on that wallet.
    await page.goto(`${url}&latchkey_connector=injected&latchkey_wallet_client=test`)
    await dialog.getByRole('heading', { name: 'Successfully connected with Test Wallet' }).waitFor()
    expect(new URL(page.url()).search).toBe(`?appId=${walletAppId}`)
    await waitForModalClosed(dialog)
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    await context.close()
  })
})
