import type { Browser, Locator } from 'playwright-core'
import { type Hex, stringToHex, verifyMessage } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium } from './browser.ts'
import { methodsOf, newWalletPage, walletDemoUrl, walletRow } from './wallet-helpers.ts'
import { installTestEthereumWallet, type TestEthereumWallet } from './wallets/ethereum.ts'

// The connect-only wallet modal (spec 01 §2 "Connect-only wallet screen"):
// the demo's "Connect a wallet" connects an external wallet without logging
// in; the demo lists it, signs with it through its own provider, keeps it
// across a reload and disconnects it.

const { demoUrl, walletAppId } = inject('e2e')
const url = walletDemoUrl(demoUrl, walletAppId)
/** What the demo's "Sign with" signs (apps/demo/src/components/ExternalWallets.tsx). */
const DEMO_MESSAGE = 'Hello from the Latchkey demo'

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

/** The wallet rows of the open list (buttons with `data-wallet`). */
const rows = (dialog: Locator) => dialog.locator('button[data-wallet]')
const rowNames = async (dialog: Locator) =>
  (await rows(dialog).evaluateAll((buttons) =>
    buttons.map((b) => b.getAttribute('aria-label')),
  )) as string[]

/**
 * Scrolls the list's viewport (the rows' nearest scrollable ancestor) to
 * `top`; returns its size: the visible height and the height of all rows.
 */
const scrollWalletList = (dialog: Locator, top: number) =>
  rows(dialog)
    .first()
    .evaluate((row, top) => {
      let el = row.parentElement
      while (el && !['auto', 'scroll'].includes(getComputedStyle(el).overflowY))
        el = el.parentElement
      if (!el) throw new Error('the wallet list does not scroll')
      el.scrollTop = top
      return { clientHeight: el.clientHeight, scrollHeight: el.scrollHeight }
    }, top)

describe('connect-only wallet modal', () => {
  it('connects one wallet without logging in, signs with it, keeps it on reload, disconnects it', async () => {
    const { context, page, dialog } = await newWalletPage(browser)
    const wallet = await installTestEthereumWallet(page)
    await page.goto(url)
    await page.getByRole('button', { name: 'Connect a wallet', exact: true }).click()
    await dialog.getByRole('heading', { name: 'Connect a wallet' }).waitFor()
    // One detected wallet plus the default listings: 4 rows, no 'More wallets', no search.
    await expect.poll(() => rows(dialog).count()).toBe(4)
    expect(await rowNames(dialog)).toEqual([
      'Test Wallet',
      'MetaMask',
      'Coinbase Wallet',
      'Rainbow',
    ])
    expect(await dialog.getByRole('button', { name: 'More wallets' }).count()).toBe(0)
    expect(await dialog.getByRole('searchbox', { name: 'Search wallets' }).count()).toBe(0)

    await walletRow(dialog, 'test').click()
    await dialog.getByRole('heading', { name: 'Successfully connected with Test Wallet' }).waitFor()
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    // Connected, not logged in.
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor()
    const listed = page.getByTestId('external-wallet-ethereum')
    await expect.poll(() => listed.textContent()).toContain(wallet.address)
    await expect
      .poll(() => page.getByTestId('external-wallet-result').textContent())
      .toBe(wallet.address)
    expect(methodsOf(wallet.requests)).not.toContain('personal_sign')

    // "Sign with" signs through the wallet's own provider; the signature verifies in Node.
    await page.getByRole('button', { name: 'Sign with Test Wallet' }).click()
    await expect
      .poll(() => page.getByTestId('external-wallet-result').textContent())
      .toMatch(/^0x[0-9a-f]{130}$/)
    const signature = (await page.getByTestId('external-wallet-result').textContent()) as Hex
    expect(await verifyMessage({ address: wallet.address, message: DEMO_MESSAGE, signature })).toBe(
      true,
    )
    expect(wallet.requests.find((r) => r.method === 'personal_sign')?.params).toEqual([
      stringToHex(DEMO_MESSAGE),
      wallet.address,
    ])

    // A reload restores the connection silently (eth_accounts, no new prompt).
    const requestsBefore = wallet.requests.length
    await page.reload()
    await expect.poll(() => listed.textContent(), { timeout: 15_000 }).toContain(wallet.address)
    const afterReload = methodsOf(wallet.requests.slice(requestsBefore))
    expect(afterReload).toContain('eth_accounts')
    expect(afterReload).not.toContain('eth_requestAccounts')
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor()

    // Disconnect: the row goes, and stays gone after a reload.
    const storedConnections = () =>
      page.evaluate(() =>
        Object.keys(localStorage).filter((key) => key.startsWith('latchkey:wallet-connections:')),
      )
    expect(await storedConnections()).toHaveLength(1)
    await page.getByRole('button', { name: 'Disconnect Test Wallet' }).click()
    await listed.waitFor({ state: 'detached' })
    await page.getByText('No external wallet connected.').waitFor()
    await page.reload()
    await page.getByRole('button', { name: 'Connect a wallet', exact: true }).waitFor()
    await page.getByText('No external wallet connected.').waitFor()
    // A reload restores only stored connections, and none is left to restore.
    expect(await storedConnections()).toEqual([])
    expect(await listed.count()).toBe(0)
    await context.close()
  })

  it('collapses 8 wallets behind "More wallets", searches them, virtualises the list', async () => {
    const { context, page, dialog } = await newWalletPage(browser)
    const names = ['Aster', 'Birch', 'Cedar', 'Dahlia', 'Elm', 'Fern', 'Ginkgo', 'Hazel']
    const wallets: TestEthereumWallet[] = []
    for (const name of names)
      wallets.push(
        await installTestEthereumWallet(page, {
          name: `${name} Wallet`,
          rdns: `io.latchkey.test.${name.toLowerCase()}`,
        }),
      )
    expect(new Set(wallets.map((w) => w.info.uuid)).size).toBe(8)
    await page.goto(url)
    await page.getByRole('button', { name: 'Connect a wallet', exact: true }).click()
    await dialog.getByRole('heading', { name: 'Connect a wallet' }).waitFor()

    // 8 detected + MetaMask, Coinbase Wallet, Rainbow = 11: the first 3, then 'More wallets'.
    const more = dialog.getByRole('button', { name: 'More wallets' })
    await more.waitFor()
    await expect.poll(() => rows(dialog).count()).toBe(3)
    expect(await dialog.getByRole('searchbox', { name: 'Search wallets' }).count()).toBe(0)

    await more.click()
    const search = dialog.getByRole('searchbox', { name: 'Search wallets' })
    await search.waitFor()
    // Virtualised: 54 px rows, 5 visible, so only 7 of the 11 rows are in the DOM.
    await expect.poll(() => rows(dialog).count()).toBe(7)
    expect(await scrollWalletList(dialog, 0)).toEqual({
      clientHeight: 5 * 54,
      scrollHeight: 11 * 54,
    })
    expect(await walletRow(dialog, 'rainbow').count()).toBe(0)
    const [topRow] = await rowNames(dialog)
    // Scrolled to the end, the last rows are drawn and the first ones are not.
    await scrollWalletList(dialog, 11 * 54)
    await walletRow(dialog, 'rainbow').waitFor()
    expect(await rowNames(dialog)).not.toContain(topRow)
    expect(await rows(dialog).count()).toBeLessThan(11)

    // Case-insensitive substring search on the name.
    await search.fill('el')
    await expect.poll(() => rowNames(dialog)).toEqual(['Elm Wallet', 'Hazel Wallet'])
    await search.fill('dahl')
    await expect.poll(() => rowNames(dialog)).toEqual(['Dahlia Wallet'])

    await walletRow(dialog, 'dahlia').click()
    await dialog
      .getByRole('heading', { name: 'Successfully connected with Dahlia Wallet' })
      .waitFor()
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    const dahlia = wallets[names.indexOf('Dahlia')]
    if (!dahlia) throw new Error('no Dahlia wallet')
    const listed = page.getByTestId('external-wallet-ethereum')
    await expect.poll(() => listed.textContent()).toContain(dahlia.address)
    expect(await listed.count()).toBe(1)
    expect(await listed.textContent()).toContain('Dahlia Wallet')
    // Only the picked wallet was asked to connect.
    for (const w of wallets)
      expect(methodsOf(w.requests).includes('eth_requestAccounts')).toBe(w === dahlia)
    await context.close()
  })
})
