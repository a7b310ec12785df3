import { createLatchkeyServerClient, LatchkeyApiError } from '@latchkey/server/sdk'
import type { Browser, Locator, Page } from 'playwright-core'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'

// Delegated actions end to end (spec 03 §2, §4, §8; docs/delegated-actions.md):
// in the demo, 'Enable offline access' → Accept → 'Success!' → the modal closes
// after 2.5 s and the wallet shows delegated; the app's backend then signs
// with it under its app secret (personal_sign, checked with viem); 'Revoke
// offline access to wallet' → Confirm undelegates it and the backend is
// refused. 'Not now' declines with spec 03 §8's message. One login for the file.

const { serverUrl, demoUrl, delegation } = inject('e2e')
const email = uniqueEmail('delegate')
const MESSAGE = 'Signed by the app while the user is away'

let browser: Browser
let page: Page
let dialog: Locator
let address: `0x${string}`
const backend = createLatchkeyServerClient({
  url: serverUrl,
  appId: delegation.appId,
  appSecret: delegation.appSecret,
})

beforeAll(async () => {
  browser = await launchChromium()
  page = await (await browser.newContext()).newPage()
  dialog = await logInToDemo(
    page,
    { serverUrl, demoUrl: `${demoUrl}/?appId=${delegation.appId}` },
    email,
  )
  await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
  await dialog.waitFor({ state: 'detached', timeout: 10_000 })
  address = (await walletAddress(page)) as `0x${string}`
})
afterAll(async () => {
  await browser?.close()
})

/** The app backend's personal_sign with the user's Ethereum wallet (server SDK → POST /api/v1/wallets/:id/rpc). */
async function backendSign(): Promise<`0x${string}`> {
  const user = await backend.getUserByEmail(email)
  const wallets = await backend.getUserWallets(user?.id ?? '')
  const wallet = wallets.find((w) => w.chain_type === 'ethereum' && w.wallet_index === 0)
  return backend.wallets.ethereum.signMessage(wallet?.id ?? '', MESSAGE)
}

const state = () => page.getByTestId('delegated-ethereum')

describe('delegated actions in the demo', () => {
  it("'Not now' declines: 'User declined delegating actions.', nothing delegated", async () => {
    await page.getByTestId('delegate-ethereum').click()
    await dialog.getByRole('heading', { name: 'Enable offline access' }).waitFor()
    await dialog.getByRole('button', { name: 'Not now', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    await expect
      .poll(() => page.getByTestId('offline-access-error').textContent())
      .toBe('User declined delegating actions.')
    expect(await state().textContent()).toBe('Not delegated')
  })

  it('delegates (Accept → Success!), the backend signs with the wallet, then revoke (Confirm) stops it', async () => {
    await page.getByTestId('delegate-ethereum').click()
    await dialog.getByRole('heading', { name: 'Enable offline access' }).waitFor()
    await dialog.getByRole('button', { name: 'Accept', exact: true }).click()
    await dialog.getByRole('heading', { name: 'Success!' }).waitFor({ timeout: 30_000 })
    // Spec 03 §4: the modal closes by itself 2.5 s later.
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    await expect.poll(() => state().textContent()).toBe('Delegated')

    const signature = await backendSign()
    expect(await verifyMessage({ address, message: MESSAGE, signature })).toBe(true)

    await page.getByRole('button', { name: 'Revoke offline access', exact: true }).click()
    await dialog.getByRole('heading', { name: 'Revoke offline access to wallet' }).waitFor()
    await dialog.getByRole('button', { name: 'Confirm', exact: true }).click()
    await dialog.getByRole('heading', { name: 'Success!' }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    await expect.poll(() => state().textContent()).toBe('Not delegated')

    const refused = await backendSign().catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(LatchkeyApiError)
    expect(refused).toMatchObject({ code: 'WALLET_NOT_DELEGATED', status: 403 })
  })
})
