import { routes } from '@latchkey/protocol'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import type { Browser, Page, Route } from 'playwright-core'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, signInDemo, uniqueEmail, walletAddress } from './browser.ts'
import { waitForModalClosed } from './wallet-helpers.ts'

// Issue 16, item 1: guests get embedded wallets as any user does
// (createOnLogin 'all-users' in the demo, spec 02: a guest is an
// authenticated user), and a user left without a wallet is offered
// "Create wallet" instead of a dead end.

const { serverUrl, demoUrl } = inject('e2e')
const MESSAGE = 'Hello from the Latchkey demo'

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

/** Signs with both wallets and checks each signature against its address. */
async function signWithBoth(page: Page) {
  const ethereum = await walletAddress(page, 'wallet-ethereum-0')
  const solana = await walletAddress(page, 'wallet-solana-0')
  const signature = await signInDemo(page, 'Sign message', 'Ethereum signature')
  expect(
    await verifyMessage({
      address: ethereum as `0x${string}`,
      message: MESSAGE,
      signature: signature as `0x${string}`,
    }),
  ).toBe(true)
  const solanaSignature = await signInDemo(page, 'Solana sign message', 'Solana signature')
  expect(
    ed25519.verify(
      base64.decode(solanaSignature),
      new TextEncoder().encode(MESSAGE),
      base58.decode(solana),
    ),
  ).toBe(true)
}

describe('wallets for every user in the demo', () => {
  it('a guest gets an Ethereum and a Solana wallet on login, and signs with both', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(demoUrl)
    await page.getByRole('button', { name: 'Continue as guest' }).click()
    // The modal's post-login wallet step, as after any login.
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Welcome to E2E Demo' }).waitFor({ timeout: 30_000 })
    await waitForModalClosed(dialog, 10_000)
    await page.getByRole('heading', { name: "You're a guest" }).waitFor()
    expect(await walletAddress(page, 'wallet-ethereum-0')).toMatch(/^0x[0-9a-fA-F]{40}$/)
    expect(await walletAddress(page, 'wallet-solana-0')).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    await expect(page.getByText('No embedded wallet yet.').count()).resolves.toBe(0)
    await signWithBoth(page)
    await context.close()
  })

  it('a user whose wallet creation was cut short is offered "Create wallet", and it works', async () => {
    const context = await browser.newContext()
    const page = await context.newPage()
    // The enclave's creation request is held and never reaches the server:
    // the page is reloaded while it waits, as a user closing the tab would.
    const createUrl = `${serverUrl}${routes.embeddedWalletsCreate}`
    const held: Route[] = []
    let requested!: () => void
    const createRequested = new Promise<void>((resolve) => {
      requested = resolve
    })
    await page.route(createUrl, (route) => {
      held.push(route)
      requested()
    })
    const dialog = await logInToDemo(page, { serverUrl, demoUrl }, uniqueEmail('cut-short'))
    await dialog.getByRole('heading', { name: 'Setting up your wallet' }).waitFor({
      timeout: 30_000,
    })
    await createRequested
    await page.reload()
    // Answered only now, and never by the server (an unanswered route would go on to it).
    for (const route of held) await route.abort().catch(() => undefined)
    await page.unroute(createUrl)

    await page.getByRole('heading', { name: "You're logged in" }).waitFor({ timeout: 30_000 })
    await page.getByText('No embedded wallet yet.').waitFor()
    await expect(
      page.getByRole('button', { name: 'Sign message', exact: true }).isDisabled(),
    ).resolves.toBe(true)
    await page.getByRole('button', { name: 'Create wallet', exact: true }).click()
    await page.getByTestId('wallet-ethereum-0').waitFor({ timeout: 30_000 })
    await page.getByTestId('wallet-solana-0').waitFor()
    await expect(
      page.getByRole('button', { name: 'Create wallet', exact: true }).count(),
    ).resolves.toBe(0)
    await signWithBoth(page)
    await context.close()
  })
})
