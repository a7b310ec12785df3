import {
  type AnvilNode,
  deployTestTokens,
  startAnvil,
  type TestTokens,
} from '@latchkey/server/test/chains'
import type { Browser, Locator, Page } from 'playwright-core'
import { createPublicClient, defineChain, erc20Abi, http, parseEther } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'

// The demo's Send panel against a real chain: Anvil with the test tokens,
// the embedded wallet signing in the enclave, the confirm screen in between.
const { serverUrl, demoUrl } = inject('e2e')
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

let browser: Browser
let anvil: AnvilNode
let tokens: TestTokens
let chain: ReturnType<typeof createPublicClient>

beforeAll(async () => {
  ;[browser, anvil] = await Promise.all([launchChromium(), startAnvil()])
  tokens = await deployTestTokens(anvil.rpcUrl, { mintTo: DEV_ACCOUNT })
  chain = createPublicClient({
    chain: defineChain({ ...foundry, rpcUrls: { default: { http: [anvil.rpcUrl] } } }),
    transport: http(),
  })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await anvil?.stop()
})

/** A new user on the demo pointed at this test's Anvil; their Ethereum wallet's address. */
async function logIn(page: Page): Promise<`0x${string}`> {
  const url = `${demoUrl}/?rpcUrl=${encodeURIComponent(anvil.rpcUrl)}&erc20=${tokens.erc20.address}&erc721=${tokens.erc721.address}`
  const dialog = await logInToDemo(page, { serverUrl, demoUrl: url }, uniqueEmail('tx'))
  await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
  await dialog.waitFor({ state: 'detached', timeout: 10_000 })
  return (await walletAddress(page)) as `0x${string}`
}

async function click(page: Page, name: string): Promise<Locator> {
  await page.getByRole('button', { name, exact: true }).click()
  return page.getByRole('dialog')
}

const row = (dialog: Locator, label: string) =>
  dialog
    .locator('.lk-tx-row')
    .filter({ has: dialog.page().locator(`dt:text-is("${label}")`) })
    .locator('dd')

async function result(page: Page, label: string): Promise<string> {
  const value = page
    .getByTestId('send-result')
    .filter({ hasText: `${label}:` })
    .locator('code')
  await value.waitFor({ timeout: 30_000 })
  return ((await value.textContent()) ?? '').trim()
}

/** With E2E_SCREENSHOTS=<dir>, the screens as a user sees them (for a look, not asserted). */
async function screenshot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS
  if (dir) await page.screenshot({ path: `${dir}/${name}.png` })
}

async function approve(dialog: Locator) {
  const button = dialog.getByRole('button', { name: 'Approve', exact: true })
  await expect.poll(() => button.isEnabled(), { timeout: 30_000 }).toBe(true)
  await button.click()
}

describe('Ethereum transactions from the embedded wallet', () => {
  // One user for these, funded once (each login costs seconds); in order.
  let page: Page
  let address: `0x${string}`
  beforeAll(async () => {
    page = await (await browser.newContext()).newPage()
    address = await logIn(page)
    await click(page, 'Get 10 test ETH')
    await result(page, 'Funded')
  }, 60_000)

  it('sends ETH: the confirm screen, the enclave signs, the receipt; the chain agrees', async () => {
    const before = await chain.getBalance({ address: RECIPIENT })
    const dialog = await click(page, 'Send ETH')
    await dialog.getByRole('heading', { name: 'Confirm transaction' }).waitFor({ timeout: 30_000 })
    // The built-in simulation (eth_simulateV1 on Anvil) shows what leaves the wallet.
    await expect
      .poll(() => row(dialog, 'Send').innerText(), { timeout: 30_000 })
      .toContain('0.01 ETH')
    await expect.poll(() => row(dialog, 'Network').innerText()).toContain('Foundry')
    await expect
      .poll(() => row(dialog, 'Estimated fee').innerText(), { timeout: 30_000 })
      .toMatch(/ETH/)
    await screenshot(page, 'transaction-confirm')
    await approve(dialog)
    await dialog
      .getByRole('heading', { name: 'Transaction complete!' })
      .waitFor({ timeout: 30_000 })
    await dialog.getByText("You're all set.").waitFor()
    await screenshot(page, 'transaction-receipt')
    await dialog.getByRole('button', { name: 'All Done' }).click()

    const hash = (await result(page, 'ETH sent')) as `0x${string}`
    const receipt = await chain.getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())
    expect((await chain.getBalance({ address: RECIPIENT })) - before).toBe(parseEther('0.01'))
  })

  it('decodes token calls: mint, then an unlimited approval shows "Maximum" under "Confirm address"', async () => {
    let dialog = await click(page, 'Mint 100 TUSD')
    await dialog.getByRole('heading', { name: 'Confirm transaction' }).waitFor({ timeout: 30_000 })
    await expect
      .poll(() => row(dialog, 'Token address').innerText(), { timeout: 30_000 })
      .toMatch(/0x/)
    await approve(dialog)
    await dialog.getByRole('button', { name: 'All Done' }).click()
    await result(page, 'TUSD minted')
    expect(
      await chain.readContract({
        address: tokens.erc20.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      }),
    ).toBe(100_000_000n)

    dialog = await click(page, 'Approve unlimited TUSD')
    await dialog.getByRole('heading', { name: 'Confirm address' }).waitFor({ timeout: 30_000 })
    await expect.poll(() => row(dialog, 'Approval amount').innerText()).toContain('Maximum')
    await screenshot(page, 'transaction-approve')
    await expect.poll(() => row(dialog, 'Spender').innerText()).toMatch(/0x7099/i)
    await approve(dialog)
    await dialog.getByRole('button', { name: 'All Done' }).click()
    await result(page, 'TUSD approved')
    expect(
      await chain.readContract({
        address: tokens.erc20.address,
        abi: erc20Abi,
        functionName: 'allowance',
        args: [address, RECIPIENT],
      }),
    ).toBe(2n ** 256n - 1n)
  })

  it('runs a multi-step request: "(1 / 2)" and Continue, then "(2 / 2)" and Approve; both land in order', async () => {
    // The user minted 100 TUSD in the test before.
    const dialog = await click(page, 'Approve and send 1 TUSD')
    await dialog
      .getByRole('heading', { name: 'Confirm address (1 / 2)' })
      .waitFor({ timeout: 30_000 })
    const next = dialog.getByRole('button', { name: 'Continue', exact: true })
    await expect.poll(() => next.isEnabled(), { timeout: 30_000 }).toBe(true)
    await next.click()
    await dialog
      .getByRole('heading', { name: 'Confirm transaction (2 / 2)' })
      .waitFor({ timeout: 30_000 })
    await screenshot(page, 'transaction-step-2')
    await approve(dialog)
    await dialog.getByRole('button', { name: 'All Done' }).click()
    const hashes = (await result(page, 'Two steps sent')).split(' ') as `0x${string}`[]
    expect(hashes).toHaveLength(2)
    const [first, second] = await Promise.all(
      hashes.map((hash) => chain.getTransactionReceipt({ hash })),
    )
    expect([first?.status, second?.status]).toEqual(['success', 'success'])
    expect(first!.blockNumber <= second!.blockNumber).toBe(true)
    expect(
      await chain.readContract({
        address: tokens.erc20.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [address],
      }),
    ).toBe(99_000_000n)
  })

  it('signs a transaction without sending it: the signature recovers to the wallet, the nonce is unused', async () => {
    const nonce = await chain.getTransactionCount({ address })
    const dialog = await click(page, 'Sign transaction only')
    await approve(dialog)
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    const signed = (await result(page, 'Signed')) as `0x${string}`
    const { recoverTransactionAddress } = await import('viem')
    expect(
      (await recoverTransactionAddress({ serializedTransaction: signed as never })).toLowerCase(),
    ).toBe(address.toLowerCase())
    expect(await chain.getTransactionCount({ address })).toBe(nonce)
  })
})

describe('a wallet without the funds', () => {
  it('without the funds: Approve is disabled under "Add funds on Foundry to complete transaction."; closing sends nothing (4001)', async () => {
    const page = await (await browser.newContext()).newPage()
    const address = await logIn(page)
    const dialog = await click(page, 'Send ETH')
    await dialog
      .getByText('Add funds on Foundry to complete transaction.')
      .waitFor({ timeout: 30_000 })
    expect(await dialog.getByRole('button', { name: 'Approve', exact: true }).isDisabled()).toBe(
      true,
    )
    await dialog.getByRole('button', { name: 'Close' }).click()
    await page
      .getByTestId('send-error')
      .filter({ hasText: 'Nothing sent: the dialog was closed.' })
      .waitFor()
    expect(await chain.getTransactionCount({ address })).toBe(0)
  })
})
