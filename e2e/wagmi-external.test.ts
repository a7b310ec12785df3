import { type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import type { Browser, Page } from 'playwright-core'
import {
  createPublicClient,
  defineChain,
  type Hex,
  http,
  numberToHex,
  parseEther,
  verifyMessage,
} from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, walletAddress } from './browser.ts'
import {
  methodsOf,
  newWalletPage,
  openWalletLogin,
  waitForModalClosed,
  walletDemoUrl,
  walletRow,
} from './wallet-helpers.ts'
import { installTestEthereumWallet } from './wallets/ethereum.ts'

// The demo's wagmi panel acting through an external wallet (issue 23): the
// user logs in with an injected (EIP-6963) test wallet holding a real key,
// picks it as wagmi's active wallet, and wagmi's own useSignMessage /
// useSendTransaction go through that wallet's provider to a real Anvil.
const { demoUrl, walletAppId } = inject('e2e')
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const MESSAGE = 'Hello from wagmi'

let browser: Browser
let anvil: AnvilNode
let chain: ReturnType<typeof createPublicClient>

beforeAll(async () => {
  ;[browser, anvil] = await Promise.all([launchChromium(), startAnvil()])
  chain = createPublicClient({
    chain: defineChain({ ...foundry, rpcUrls: { default: { http: [anvil.rpcUrl] } } }),
    transport: http(),
  })
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await anvil?.stop()
})

const panel = (page: Page) => page.getByTestId('wagmi-panel')

async function wagmiResult(page: Page, label: string): Promise<string> {
  const value = panel(page)
    .getByTestId('wagmi-result')
    .filter({ hasText: `${label}:` })
  await value.locator('code').waitFor({ timeout: 30_000 })
  return ((await value.locator('code').textContent()) ?? '').trim()
}

describe('wagmi through @latchkey/wagmi with an external wallet', () => {
  it('a wallet-login user picks the external wallet; wagmi signs and sends through it', async () => {
    const { context, page } = await newWalletPage(browser)
    // On the Anvil chain, one of the demo's chains: the login signs there, no switch.
    const wallet = await installTestEthereumWallet(page, {
      chainId: anvil.chainId,
      rpcUrls: { [anvil.chainId]: anvil.rpcUrl },
    })
    await page.goto(
      `${walletDemoUrl(demoUrl, walletAppId)}&rpcUrl=${encodeURIComponent(anvil.rpcUrl)}`,
    )
    const dialog = await openWalletLogin(page)
    await walletRow(dialog, 'test').click()
    await dialog.getByRole('heading', { name: 'Successfully connected with Test Wallet' }).waitFor()
    await waitForModalClosed(dialog)
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()

    // The demo gives every user an embedded wallet too: wagmi starts on it (the default).
    await page.getByTestId('wallet-ethereum-0').locator('code').waitFor()
    const embedded = await walletAddress(page)
    expect(embedded.toLowerCase()).not.toBe(wallet.address.toLowerCase())
    await expect.poll(() => panel(page).getByTestId('wagmi-address').textContent()).toBe(embedded)

    // The panel's picker (useWagmiWallets + useSetActiveWallet) moves wagmi to the external wallet.
    const picker = panel(page).getByRole('combobox', { name: 'wagmi wallet' })
    await picker.selectOption(wallet.address.toLowerCase())
    await expect
      .poll(() => panel(page).getByTestId('wagmi-address').textContent())
      .toBe(wallet.address)
    await expect.poll(() => panel(page).getByTestId('wagmi-status').textContent()).toBe('connected')
    await expect
      .poll(() => panel(page).textContent())
      .toContain(`via Test Wallet, chain ${anvil.chainId}`)

    // useSignMessage: the wallet's own key signs (its prompt, not Latchkey's screen).
    const signsBefore = methodsOf(wallet.requests).filter((m) => m === 'personal_sign').length
    await panel(page).getByRole('button', { name: 'wagmi: sign message' }).click()
    const signature = (await wagmiResult(page, 'wagmi signature')) as Hex
    expect(await verifyMessage({ address: wallet.address, message: MESSAGE, signature })).toBe(true)
    expect(methodsOf(wallet.requests).filter((m) => m === 'personal_sign')).toHaveLength(
      signsBefore + 1,
    )
    expect(await dialog.count()).toBe(0)

    // useSendTransaction: Anvil's faucet funds the external address; the wallet signs and broadcasts.
    await chain.request({
      method: 'anvil_setBalance' as never,
      params: [wallet.address, numberToHex(parseEther('1'))] as never,
    })
    const before = await chain.getBalance({ address: RECIPIENT })
    await panel(page).getByRole('button', { name: 'wagmi: send 0.001 ETH' }).click()
    const hash = (await wagmiResult(page, 'wagmi transaction')) as Hex
    const receipt = await chain.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(wallet.address.toLowerCase())
    expect((await chain.getBalance({ address: RECIPIENT })) - before).toBe(parseEther('0.001'))
    expect(methodsOf(wallet.requests)).toContain('eth_sendTransaction')
    expect(await dialog.count()).toBe(0)

    // And back: the embedded wallet is wagmi's again.
    await picker.selectOption(embedded.toLowerCase())
    await expect.poll(() => panel(page).getByTestId('wagmi-address').textContent()).toBe(embedded)
    await context.close()
  })
})
