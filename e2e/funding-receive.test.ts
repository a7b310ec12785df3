import { type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import type { Browser, Locator, Page } from 'playwright-core'
import { createWalletClient, defineChain, http, parseEther } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'

// Receive funds (spec 03 "Receive funds", §4 "Manual receive") end to end:
// the demo's "Fund Ethereum wallet" on the funding app opens the chooser,
// Receive shows the QR code and the wallet's balance read from Anvil every
// 2 s; another Anvil account pays, and the screen follows the chain.
const { serverUrl, demoUrl, fundingAppId } = inject('e2e')
// Anvil's first dev account: unlocked, so the node signs its eth_sendTransaction.
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
// Where the screenshots go, for a look (not asserted).
const SCREENSHOTS = process.env.E2E_FUNDING_SCREENSHOTS ?? '/tmp/helpers'

let browser: Browser
let anvil: AnvilNode

beforeAll(async () => {
  ;[browser, anvil] = await Promise.all([launchChromium(), startAnvil()])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await anvil?.stop()
})

/** The dev account pays `eth` to `to` on Anvil (mined at once). */
async function pay(to: `0x${string}`, eth: string) {
  const chain = defineChain({ ...foundry, rpcUrls: { default: { http: [anvil.rpcUrl] } } })
  const wallet = createWalletClient({ account: DEV_ACCOUNT, chain, transport: http() })
  await wallet.sendTransaction({ to, value: parseEther(eth) })
}

const card = (dialog: Locator) => dialog.getByTestId('lk-wallet-card')

describe('Receive funds on Anvil', () => {
  let page: Page
  let address: `0x${string}`

  beforeAll(async () => {
    page = await (await browser.newContext()).newPage()
    const url = `${demoUrl}/?appId=${fundingAppId}&rpcUrl=${encodeURIComponent(anvil.rpcUrl)}`
    const dialog = await logInToDemo(page, { serverUrl, demoUrl: url }, uniqueEmail('fund'))
    await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    address = (await walletAddress(page)) as `0x${string}`
  }, 60_000)

  it('the chooser offers what the app configured; Receive follows the balance until Continue', async () => {
    await page.getByRole('button', { name: 'Fund Ethereum wallet' }).click()
    const dialog = page.getByRole('dialog')
    await dialog
      .getByRole('heading', { name: 'Add funds to your E2E Funding wallet' })
      .waitFor({ timeout: 30_000 })
    const receive = dialog.getByRole('button', { name: 'Receive funds' })
    await expect.poll(() => receive.isEnabled(), { timeout: 10_000 }).toBe(true)
    await expect
      .poll(() => dialog.locator('.lk-option').allInnerTexts())
      .toEqual(['Transfer from wallet', 'Receive funds'])
    await page.screenshot({ path: `${SCREENSHOTS}/funding-chooser.png` })

    await receive.click()
    await dialog.getByRole('heading', { name: 'Receive 0.5 ETH' }).waitFor()
    await dialog
      .getByText('Scan this code or copy your wallet address to receive funds on Foundry.')
      .waitFor()
    const qr = dialog.getByRole('img', { name: 'QR code to send ETH to your wallet' })
    expect(await qr.getAttribute('data-qr-value')).toBe(
      `ethereum:${address}@31337?value=500000000000000000`,
    )
    expect(await qr.getAttribute('width')).toBe('240')
    // The first reading (the baseline): nothing yet, no Continue.
    await expect.poll(() => card(dialog).innerText(), { timeout: 10_000 }).toContain('0 ETH')
    expect(await dialog.getByRole('button', { name: 'Continue' }).count()).toBe(0)

    // A rise above the first reading: Continue; not yet the requested 0.5, so not green.
    await pay(address, '0.2')
    await dialog.getByRole('button', { name: 'Continue' }).waitFor({ timeout: 10_000 })
    await expect.poll(() => card(dialog).innerText()).toContain('0.2 ETH')
    expect(await card(dialog).getAttribute('data-funded')).toBe('false')

    // At the requested amount the card turns green.
    await pay(address, '0.3')
    await expect
      .poll(() => card(dialog).getAttribute('data-funded'), { timeout: 10_000 })
      .toBe('true')
    await expect.poll(() => card(dialog).innerText()).toContain('0.5 ETH')
    const green = await card(dialog).evaluate((el) => getComputedStyle(el).backgroundColor)
    expect(green).not.toBe('rgba(0, 0, 0, 0)')
    await page.screenshot({ path: `${SCREENSHOTS}/funding-receive.png` })

    await dialog.getByRole('button', { name: 'Continue' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    await expect.poll(() => page.getByTestId('fund-result').innerText()).toBe('Ethereum: funded')
  })
})
