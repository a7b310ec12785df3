import { type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import type { Browser, Locator, Page } from 'playwright-core'
import { createPublicClient, createWalletClient, defineChain, http, parseEther } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'

// 'Add funds' from the confirm screen (spec 03 §4 "Ethereum transaction": "If
// funds are missing and funding is enabled, the button becomes 'Add funds'
// and opens the funding chooser with amount = value plus gas estimate"): a
// new wallet on the funding app sends ETH it does not have, receives it from
// another Anvil account, and is back on the confirm screen to approve.
const { serverUrl, demoUrl, fundingAppId } = inject('e2e')
// Anvil's first dev account: unlocked, so the node signs its eth_sendTransaction.
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

let browser: Browser
let anvil: AnvilNode

beforeAll(async () => {
  ;[browser, anvil] = await Promise.all([launchChromium(), startAnvil()])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await anvil?.stop()
})

const chain = () => defineChain({ ...foundry, rpcUrls: { default: { http: [anvil.rpcUrl] } } })

/** The dev account pays `eth` to `to` on Anvil (mined at once). */
async function pay(to: `0x${string}`, eth: string) {
  const wallet = createWalletClient({ account: DEV_ACCOUNT, chain: chain(), transport: http() })
  await wallet.sendTransaction({ to, value: parseEther(eth) })
}

const button = (dialog: Locator, name: string) => dialog.getByRole('button', { name, exact: true })

describe("'Add funds' on the confirm screen", () => {
  let page: Page
  let address: `0x${string}`

  beforeAll(async () => {
    page = await (await browser.newContext()).newPage()
    const url = `${demoUrl}/?appId=${fundingAppId}&rpcUrl=${encodeURIComponent(anvil.rpcUrl)}`
    const dialog = await logInToDemo(page, { serverUrl, demoUrl: url }, uniqueEmail('addfunds'))
    await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    address = (await walletAddress(page)) as `0x${string}`
  }, 60_000)

  it('short of funds → Add funds → Receive, another account pays → Continue → Approve', async () => {
    await page.getByRole('button', { name: 'Send ETH', exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Confirm transaction' }).waitFor({ timeout: 30_000 })
    // An empty wallet: 'Add funds' instead of Approve (funding is on for this app).
    const add = button(dialog, 'Add funds')
    await expect.poll(() => add.isEnabled(), { timeout: 30_000 }).toBe(true)
    expect(await dialog.getByText('Add funds on Foundry to complete transaction.').count()).toBe(0)
    await add.click()

    // The chooser, in the same dialog: the transaction waits underneath.
    await dialog
      .getByRole('heading', { name: 'Add funds to your E2E Funding wallet' })
      .waitFor({ timeout: 30_000 })
    const receive = button(dialog, 'Receive funds')
    await expect.poll(() => receive.isEnabled(), { timeout: 10_000 }).toBe(true)
    await receive.click()
    // The amount asked is the value plus the gas estimate: above 0.01 ETH.
    const heading = dialog.getByRole('heading', { name: /^Receive 0\.01\d* ETH$/ })
    await heading.waitFor({ timeout: 10_000 })
    const asked = Number((await heading.textContent())?.split(' ')[1])
    expect(asked).toBeGreaterThan(0.01)
    await expect
      .poll(() => dialog.getByTestId('lk-wallet-card').textContent(), { timeout: 10_000 })
      .toContain('0 ETH')

    await pay(address, '0.5')
    const proceed = button(dialog, 'Continue')
    await proceed.waitFor({ timeout: 10_000 })
    await proceed.click()

    // Back on the confirm screen, which checked the balance again.
    await dialog.getByRole('heading', { name: 'Confirm transaction' }).waitFor({ timeout: 10_000 })
    const approve = button(dialog, 'Approve')
    await expect.poll(() => approve.isEnabled(), { timeout: 30_000 }).toBe(true)
    await expect.poll(() => dialog.getByTestId('lk-wallet-card').textContent()).toContain('0.5 ETH')
    await approve.click()
    await dialog
      .getByRole('heading', { name: 'Transaction complete!' })
      .waitFor({ timeout: 30_000 })
    await button(dialog, 'All Done').click()

    const sent = page.getByTestId('send-result').filter({ hasText: 'ETH sent:' }).locator('code')
    const hash = ((await sent.textContent({ timeout: 30_000 })) ?? '').trim() as `0x${string}`
    const client = createPublicClient({ chain: chain(), transport: http() })
    const receipt = await client.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.to?.toLowerCase()).toBe(RECIPIENT.toLowerCase())
  })
})
