import type { Browser, BrowserContext, Locator, Page } from 'playwright-core'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, readCode, typeCode, uniqueEmail, walletAddress } from './browser.ts'

// Cross-app login and signing (spec 03 §2, §4, §7; docs/cross-app.md) in a
// real Chromium: the requester app R is the demo on localhost, the provider
// app P the demo on 127.0.0.1 (another origin), both on one Latchkey server.
// One login to P (in the popup), one cross-app login to R, one signature.

const { serverUrl, demoUrl, crossApp } = inject('e2e')
const requesterOrigin = demoUrl.replace('127.0.0.1', 'localhost')
/** The demo's CrossAppPanel signs this (apps/demo/src/components/CrossAppPanel.tsx). */
const MESSAGE = 'Hello from the requester app'

let browser: Browser
let context: BrowserContext
beforeAll(async () => {
  browser = await launchChromium()
  context = await browser.newContext()
})
afterAll(async () => {
  await browser?.close()
})

/** Logs in to the provider in its popup with an email code (its own modal). */
async function logInToProvider(popup: Page, email: string) {
  const dialog = popup.getByRole('dialog')
  const sentAfter = Math.floor(Date.now() / 1000) - 1
  await dialog.getByRole('textbox', { name: /email/i }).fill(email)
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor()
  await typeCode(popup, await readCode(serverUrl, email, sentAfter))
  // The provider's post-login sequence creates its embedded wallets, then the modal closes.
  await detached(dialog)
}

/** Waits for a dialog to close; if it does not, the error quotes what it shows instead. */
async function detached(dialog: Locator) {
  await dialog.waitFor({ state: 'detached', timeout: 120_000 }).catch(async (error: Error) => {
    const shown = (await dialog.textContent().catch(() => null)) ?? '(gone)'
    throw new Error(`${error.message}\nThe dialog still shows: ${shown.slice(0, 500)}`)
  })
}

/**
 * Does `action` (the click that answers), then waits for the provider's popup
 * to close; a failure it shows instead fails the test with its words. The
 * close is awaited from before the click: the page may close while the click
 * is still being reported, and Playwright's `waitForEvent('close')` on a page
 * already closed waits forever (it was the cross-app flake of 2026-11-28).
 */
async function answerAndClose(popup: Page, action: () => Promise<void>) {
  const closed = popup.waitForEvent('close', { timeout: 60_000 }).then(() => null)
  await action().catch((error: unknown) => {
    // The popup closing under the click ends the click with "Target closed".
    if (!popup.isClosed()) throw error
  })
  const failure = popup
    .getByTestId('lk-cross-app-page')
    .getByRole('alert')
    .waitFor({ timeout: 30_000 })
    .then(
      async () => (await popup.getByRole('alert').textContent()) ?? 'failed',
      () => null,
    )
  const shown = await Promise.race([closed, failure])
  if (shown) throw new Error(`The provider page failed: ${shown}`)
  await closed
}

describe('cross-app login and signing', () => {
  it('logs in to the requester with the provider’s account, then signs with the provider’s wallet', async () => {
    const page = await context.newPage()
    await page.goto(
      `${requesterOrigin}/?appId=${crossApp.requesterAppId}&crossApp=${crossApp.providerAppId}`,
    )

    // 1. Login: the landing screen's `latchkey:{P}` row (P's name from its cross-app details);
    // the modal says 'Connecting to …' while the provider's popup asks.
    await page.getByRole('button', { name: 'Log in', exact: true }).click()
    const opened = page.waitForEvent('popup')
    await page
      .getByRole('dialog')
      .getByRole('button', { name: 'Continue with E2E Provider' })
      .click()
    const popup = await opened
    await page
      .getByRole('dialog')
      .getByRole('heading', { name: 'Connecting to E2E Provider' })
      .waitFor()
    // The popup opened blank in the click, then went to the provider's page.
    await popup.waitForURL((url) => url.origin === demoUrl)
    expect(new URL(popup.url()).searchParams.get('latchkey_cross_app')).toBe('authorize')
    await logInToProvider(popup, uniqueEmail('cross'))
    const providerAddress = await walletAddress(popup)
    expect(providerAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
    await popup
      .getByRole('heading', { name: 'E2E Requester wants to connect to your account' })
      .waitFor()
    await answerAndClose(popup, () => popup.getByRole('button', { name: 'Accept' }).click())

    const dialog = page.getByRole('dialog')
    await dialog
      .getByRole('heading', { name: 'Successfully connected with E2E Provider' })
      .waitFor()
    // Then the requester's own post-login sequence (its embedded wallets), and the modal closes.
    await detached(dialog)
    // The requester user's cross_app account carries the provider's wallet.
    const shown = (await page.getByTestId('cross-app-address').textContent())?.trim()
    expect(shown?.toLowerCase()).toBe(providerAddress.toLowerCase())

    // 2. Signing: the provider's page (still logged in) shows its own sign screen.
    const openedToSign = page.waitForEvent('popup')
    await page.getByRole('button', { name: 'Sign with provider wallet' }).click()
    const signPopup = await openedToSign
    const signDialog = signPopup.getByRole('dialog')
    await answerAndClose(signPopup, () =>
      signDialog.getByRole('button', { name: 'Sign and continue' }).click({ timeout: 30_000 }),
    )
    const signature = (await page.getByTestId('cross-app-signature').textContent())?.trim() ?? ''
    expect(signature).toMatch(/^0x[0-9a-f]{130}$/)
    await expect(
      verifyMessage({
        address: providerAddress as `0x${string}`,
        message: MESSAGE,
        signature: signature as `0x${string}`,
      }),
    ).resolves.toBe(true)
  })

  it('the hook’s login runs the requester’s post-login steps, then resolves', async () => {
    // A browser of its own: logged in neither to the requester nor to the provider.
    const own = await browser.newContext()
    try {
      const page = await own.newPage()
      await page.goto(
        `${requesterOrigin}/?appId=${crossApp.requesterAppId}&crossApp=${crossApp.providerAppId}`,
      )
      // The demo's CrossAppPanel calls `useCrossAppAccounts().loginWithCrossAppAccount`.
      const opened = page.waitForEvent('popup')
      await page.getByRole('button', { name: 'Log in with provider app' }).click()
      const popup = await opened
      const dialog = page.getByRole('dialog')
      await dialog.getByRole('heading', { name: 'Connecting to E2E Provider' }).waitFor()
      await popup.waitForURL((url) => url.origin === demoUrl)
      await logInToProvider(popup, uniqueEmail('cross-hook'))
      const providerAddress = await walletAddress(popup)
      await popup
        .getByRole('heading', { name: 'E2E Requester wants to connect to your account' })
        .waitFor()
      await answerAndClose(popup, () => popup.getByRole('button', { name: 'Accept' }).click())

      await dialog
        .getByRole('heading', { name: 'Successfully connected with E2E Provider' })
        .waitFor()
      // Spec 03 §4: the requester's wallet creation follows (its `createOnLogin`), then the close.
      await detached(dialog)
      const result = (await page.getByTestId('cross-app-login-result').textContent()) ?? ''
      expect(result).toMatch(/New user \S+/)
      expect(await page.getByTestId('cross-app-error').count()).toBe(0)
      // The requester's own embedded wallet exists: the post-login steps ran.
      expect(await walletAddress(page)).toMatch(/^0x[0-9a-fA-F]{40}$/)
      const shown = (await page.getByTestId('cross-app-address').textContent())?.trim()
      expect(shown?.toLowerCase()).toBe(providerAddress.toLowerCase())
    } finally {
      await own.close()
    }
  })
})
