import type { Browser, Page } from 'playwright-core'
import { generatePrivateKey } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, userId } from './browser.ts'
import {
  linkedAccounts,
  newWalletPage,
  unlinkWalletButton,
  waitForModalClosed,
  walletDemoUrl,
  walletRow,
} from './wallet-helpers.ts'
import { installTestEthereumWallet } from './wallets/ethereum.ts'

// Linking an external Ethereum wallet to a user who logged in by email
// (spec 01 "Login intent: link", §8 "Wallet"): the row appears in Linked
// accounts, the address cannot be linked to a second user, and unlinking
// frees it.

const { serverUrl, demoUrl, walletAppId } = inject('e2e')
const urls = { serverUrl, demoUrl: walletDemoUrl(demoUrl, walletAppId) }

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

/** A user logged in by email on the wallet app, with the test wallet of `privateKey` installed. */
async function emailUserWithWallet(tag: string, privateKey: `0x${string}`) {
  const { context, page } = await newWalletPage(browser)
  const wallet = await installTestEthereumWallet(page, { privateKey })
  const email = uniqueEmail(tag)
  const dialog = await logInToDemo(page, urls, email)
  await waitForModalClosed(dialog)
  await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(email)
  return { context, page, wallet, email }
}

/** 'Link wallet' → the list titled 'Link a wallet' → the test wallet. */
async function linkTestWallet(page: Page) {
  await page.getByRole('button', { name: 'Link wallet', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('heading', { name: 'Link a wallet' }).waitFor()
  await walletRow(dialog, 'test').click()
  return dialog
}

describe('linking an external wallet', () => {
  it('links a wallet, refuses it to a second user, unlinks it, then the second user can link it', async () => {
    const privateKey = generatePrivateKey()
    const alice = await emailUserWithWallet('wallet-link-a', privateKey)
    const aliceId = await userId(alice.page)
    const address = alice.wallet.address

    const dialog = await linkTestWallet(alice.page)
    await dialog.getByRole('heading', { name: 'Successfully connected with Test Wallet' }).waitFor()
    // A link has no post-login sequence: the modal closes after the success screen.
    await waitForModalClosed(dialog)
    await unlinkWalletButton(alice.page, address, 'ethereum', 'test').waitFor()
    // Still the same user, email kept.
    expect(await userId(alice.page)).toBe(aliceId)
    await expect.poll(() => alice.page.getByTestId('user-email').textContent()).toBe(alice.email)
    expect(alice.wallet.requests.some((r) => r.method === 'personal_sign')).toBe(true)

    // Bob, another user, tries the same address.
    const bob = await emailUserWithWallet('wallet-link-b', privateKey)
    const bobDialog = await linkTestWallet(bob.page)
    await bobDialog.getByRole('heading', { name: 'User already exists for this address' }).waitFor()
    await bobDialog.getByText('Try another address!').waitFor()
    await bobDialog.getByRole('button', { name: 'Use a different wallet' }).waitFor()
    // Nothing was linked to Bob.
    expect(await unlinkWalletButton(bob.page, address, 'ethereum', 'test').count()).toBe(0)

    // Alice unlinks it: the row goes, her other accounts stay.
    await unlinkWalletButton(alice.page, address, 'ethereum', 'test').click()
    await unlinkWalletButton(alice.page, address, 'ethereum', 'test').waitFor({
      state: 'detached',
    })
    await expect.poll(() => linkedAccounts(alice.page).textContent()).toContain(alice.email)
    // …and the server forgot it too: after a reload it is still gone.
    await alice.page.reload()
    await alice.page.getByRole('heading', { name: "You're logged in" }).waitFor({ timeout: 30_000 })
    await linkedAccounts(alice.page).waitFor()
    expect(await unlinkWalletButton(alice.page, address, 'ethereum', 'test').count()).toBe(0)

    // The address is free now: Bob picks it again and it is his.
    await bobDialog.getByRole('button', { name: 'Use a different wallet' }).click()
    await bobDialog.getByRole('heading', { name: 'Link a wallet' }).waitFor()
    await walletRow(bobDialog, 'test').click()
    await bobDialog
      .getByRole('heading', { name: 'Successfully connected with Test Wallet' })
      .waitFor()
    await waitForModalClosed(bobDialog)
    await unlinkWalletButton(bob.page, address, 'ethereum', 'test').waitFor()

    await Promise.all([alice.context.close(), bob.context.close()])
  })
})
