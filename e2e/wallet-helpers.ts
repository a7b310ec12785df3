import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { hexToString, isHex } from 'viem'
import type { EthereumWalletRequest } from './wallets/ethereum.ts'

// Shared by the external-wallet tests (wallet-login, wallet-link,
// wallet-connect-only): the demo pointed at the e2e wallet app, whose modal
// offers email and wallet login.

/** The demo page for the wallet app (`?appId=`, apps/demo/src/config.ts). */
export const walletDemoUrl = (demoUrl: string, walletAppId: string) =>
  `${demoUrl}/?appId=${walletAppId}`

/** A fresh context and page: wallets are installed on it before `page.goto`. */
export async function newWalletPage(
  browser: Browser,
): Promise<{ context: BrowserContext; page: Page; dialog: Locator }> {
  const context = await browser.newContext()
  const page = await context.newPage()
  return { context, page, dialog: page.getByRole('dialog') }
}

/** Log in → 'Continue with a wallet' → the list ('Log in with a wallet'). */
export async function openWalletLogin(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.locator('[data-method="wallet"]').click()
  await dialog.getByRole('heading', { name: 'Log in with a wallet' }).waitFor()
  return dialog
}

/** The list row of a wallet by its slug (`data-wallet`). */
export const walletRow = (dialog: Locator, slug: string) =>
  dialog.locator(`button[data-wallet="${slug}"]`)

/** The demo's linked-accounts table. */
export const linkedAccounts = (page: Page) => page.getByRole('table', { name: 'Linked accounts' })

/** The unlink button of an external wallet's linked-account row (its label names it). */
export const unlinkWalletButton = (
  page: Page,
  address: string,
  chainType: 'ethereum' | 'solana',
  slug: string,
) =>
  linkedAccounts(page).getByRole('button', {
    name: `Unlink wallet ${address} (${chainType}, ${slug})`,
    exact: true,
  })

/** Waits for the post-login sequence to end (the embedded wallets are created) and the modal to close. */
export async function waitForModalClosed(dialog: Locator, timeout = 30_000) {
  try {
    await dialog.waitFor({ state: 'detached', timeout })
  } catch (error) {
    // Say where the modal stopped: its screen is the useful part of the failure.
    const shown = await dialog.textContent({ timeout: 1_000 }).catch(() => '(gone)')
    throw new Error(`the modal did not close; it shows:\n${shown}`, { cause: error })
  }
}

/** The methods the page asked the wallet for, in order. */
export const methodsOf = (requests: Array<{ method: string }>) => requests.map((r) => r.method)

/** The text a `personal_sign` request asked to sign (hex-encoded by the product). */
export function personalSignText(request: EthereumWalletRequest): string {
  const [message] = request.params as [string, string]
  return isHex(message) ? hexToString(message) : message
}
