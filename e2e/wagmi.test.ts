import { type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import type { Browser, Locator, Page } from 'playwright-core'
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
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'

// The demo's wagmi panel: wagmi's own hooks (useConnection, useSignMessage,
// useSendTransaction) through @latchkey/wagmi's connector, the embedded
// wallet signing in the enclave behind the modal's screens, on a real Anvil.
const { serverUrl, demoUrl } = inject('e2e')
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

async function approve(dialog: Locator) {
  const button = dialog.getByRole('button', { name: 'Approve', exact: true })
  await expect.poll(() => button.isEnabled(), { timeout: 30_000 }).toBe(true)
  await button.click()
}

describe('wagmi through @latchkey/wagmi in the demo', () => {
  it("wagmi's account is the embedded wallet; it signs and sends through the modal's screens", async () => {
    const page = await (await browser.newContext()).newPage()
    const url = `${demoUrl}/?rpcUrl=${encodeURIComponent(anvil.rpcUrl)}`
    const dialog = await logInToDemo(page, { serverUrl, demoUrl: url }, uniqueEmail('wagmi'))
    await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    const address = (await walletAddress(page)) as Hex

    // wagmi's useConnection() follows the active Latchkey wallet: the embedded one, on Anvil.
    await expect.poll(() => panel(page).getByTestId('wagmi-address').textContent()).toBe(address)
    await expect.poll(() => panel(page).getByTestId('wagmi-status').textContent()).toBe('connected')

    // useSignMessage: the modal's "Sign message" screen asks first, as for Latchkey's own hook.
    await panel(page).getByRole('button', { name: 'wagmi: sign message' }).click()
    await dialog.getByText(MESSAGE).waitFor({ timeout: 30_000 })
    await dialog.getByRole('button', { name: 'Sign and continue' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    const signature = (await wagmiResult(page, 'wagmi signature')) as Hex
    expect(await verifyMessage({ address, message: MESSAGE, signature })).toBe(true)

    // useSendTransaction: Anvil's own faucet funds the wallet; the confirm screen, then the chain.
    await chain.request({
      method: 'anvil_setBalance' as never,
      params: [address, numberToHex(parseEther('1'))] as never,
    })
    const before = await chain.getBalance({ address: RECIPIENT })
    await panel(page).getByRole('button', { name: 'wagmi: send 0.001 ETH' }).click()
    await dialog.getByRole('heading', { name: 'Confirm transaction' }).waitFor({ timeout: 30_000 })
    await approve(dialog)
    await dialog
      .getByRole('heading', { name: 'Transaction complete!' })
      .waitFor({ timeout: 30_000 })
    await dialog.getByRole('button', { name: 'All Done' }).click()
    const hash = (await wagmiResult(page, 'wagmi transaction')) as Hex
    const receipt = await chain.waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())
    expect((await chain.getBalance({ address: RECIPIENT })) - before).toBe(parseEther('0.001'))
  })
})
