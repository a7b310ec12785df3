import { type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import type { Browser, Page } from 'playwright-core'
import { createPublicClient, createWalletClient, defineChain, http, parseEther } from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'
import { installTestEthereumWallet, type TestEthereumWallet } from './wallets/ethereum.ts'

// 'Transfer from wallet' (spec 03 "Transfer from wallet / exchange", §4
// "Wallet transfer") end to end: the injected test wallet, holding ETH on
// Anvil, is picked and connected in the funding flow, 'Confirm or edit
// amount', and the wallet signs and broadcasts the transfer to the user's
// embedded wallet; success closes the modal after 4 s.
const { serverUrl, demoUrl, fundingAppId } = inject('e2e')
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

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
const node = () => createPublicClient({ chain: chain(), transport: http() })

describe("'Transfer from wallet' with the injected test wallet on Anvil", () => {
  let page: Page
  let wallet: TestEthereumWallet
  let address: `0x${string}`

  beforeAll(async () => {
    page = await (await browser.newContext()).newPage()
    wallet = await installTestEthereumWallet(page, {
      chainId: foundry.id,
      rpcUrls: { [foundry.id]: anvil.rpcUrl },
    })
    // The external wallet holds 2 ETH, paid by Anvil's unlocked dev account.
    await createWalletClient({
      account: DEV_ACCOUNT,
      chain: chain(),
      transport: http(),
    }).sendTransaction({ to: wallet.address, value: parseEther('2') })
    const url = `${demoUrl}/?appId=${fundingAppId}&rpcUrl=${encodeURIComponent(anvil.rpcUrl)}`
    const dialog = await logInToDemo(page, { serverUrl, demoUrl: url }, uniqueEmail('transfer'))
    await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    address = (await walletAddress(page)) as `0x${string}`
  }, 60_000)

  it('pick the wallet, confirm the amount, the wallet sends; the balance rises; success closes after 4 s', async () => {
    const before = await node().getBalance({ address })
    await page.getByRole('button', { name: 'Fund Ethereum wallet' }).click()
    const dialog = page.getByRole('dialog')
    const transfer = dialog.getByRole('button', { name: 'Transfer from wallet' })
    await expect.poll(() => transfer.isEnabled(), { timeout: 30_000 }).toBe(true)
    await transfer.click()

    // Installed, not yet connected: connect it right here.
    await dialog.getByRole('heading', { name: 'Transfer from wallet' }).waitFor()
    await dialog.getByRole('button', { name: /Test Wallet/ }).click()
    await dialog
      .getByRole('heading', { name: 'Confirm or edit amount' })
      .waitFor({ timeout: 10_000 })
    expect(wallet.connected).toBe(true)
    const amount = dialog.getByLabel(/amount/i)
    expect(await amount.inputValue()).toBe('0.5')
    // Digits and one decimal point only.
    await amount.fill('0.2.5x')
    expect(await amount.inputValue()).toBe('0.25')
    await amount.fill('0.3')
    await dialog.getByRole('button', { name: 'Continue' }).click()

    await dialog.getByRole('heading', { name: 'Success!' }).waitFor({ timeout: 30_000 })
    const sent = wallet.requests.find((r) => r.method === 'eth_sendTransaction')
    expect(sent).toBeDefined()
    expect(await node().getBalance({ address })).toBe(before + parseEther('0.3'))
    // Spec 03 §9: the success screen stays, then closes the modal after 4 s.
    expect(await dialog.getByRole('heading', { name: 'Success!' }).count()).toBe(1)
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    await expect.poll(() => page.getByTestId('fund-result').textContent()).toBe('Ethereum: funded')
  })
})
