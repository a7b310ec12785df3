import { type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import { type SolanaLedger, startSolanaLedger } from '@latchkey/server/test/solana'
import type { Browser, Locator, Page, Response } from 'playwright-core'
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  getAddress,
  type Hash,
  http,
  parseEther,
} from 'viem'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'
import { installTestEthereumWallet, type TestEthereumWallet } from './wallets/ethereum.ts'
import { installTestSolanaWallet, type TestSolanaWallet } from './wallets/solana.ts'

// 'Transfer from another network' (spec 03 §2, §4 "Solana bridge funding",
// "Bridge status", §8 bridging failure) in the browser: the demo on the app
// with bridging on, the deposit sent by an injected test wallet and landing
// on a real node (Anvil, the LiteSVM ledger), and the bridge's status read by
// the modal every 1 s from the local Relay (packages/core/src/test/fake-relay.ts,
// started by the global setup: ./bridge-setup.ts) as this test scripts it.
const { serverUrl, demoUrl, bridgeAppId, bridge } = inject('e2e')
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
/** Relay's chain id for Solana devnet: the demo's cluster is a test cluster ('localnet'). */
const RELAY_SOLANA_DEVNET = 1936682084
const BRIDGE_FAILED =
  'We were unable to complete the bridging transaction. Funds will be refunded on your wallet.'

let browser: Browser
let anvil: AnvilNode
let ledger: SolanaLedger

beforeAll(async () => {
  ;[browser, anvil, ledger] = await Promise.all([
    launchChromium(),
    startAnvil(),
    startSolanaLedger(),
  ])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await anvil?.stop()
  await ledger?.stop()
})

const chain = () => defineChain({ ...foundry, rpcUrls: { default: { http: [anvil.rpcUrl] } } })
const node = () => createPublicClient({ chain: chain(), transport: http() })

/** What Relay reports for this deposit, one status per read (the last repeats). */
async function relayReports(hash: string, statuses: string[]) {
  const query = new URLSearchParams({ hash, statuses: statuses.join(',') })
  const response = await fetch(`${bridge.controlUrl}/statuses?${query}`, { method: 'POST' })
  expect(response.status).toBe(204)
}

/** How many times the modal read this deposit's status at Relay. */
async function statusReads(hash: string): Promise<number> {
  const reads = (await (await fetch(`${bridge.controlUrl}/status-reads`)).json()) as string[]
  return reads.filter((read) => read === hash).length
}

async function lastQuoteBody(): Promise<Record<string, unknown>> {
  const quotes = (await (await fetch(`${bridge.controlUrl}/quotes`)).json()) as Record<
    string,
    unknown
  >[]
  return quotes.at(-1) ?? {}
}

const status = (dialog: Locator) => dialog.locator('.lk-fund-status')

async function logIn(page: Page, label: string): Promise<void> {
  const url =
    `${demoUrl}/?appId=${bridgeAppId}&rpcUrl=${encodeURIComponent(anvil.rpcUrl)}` +
    `&solanaRpcUrl=${encodeURIComponent(ledger.rpcUrl)}`
  const dialog = await logInToDemo(page, { serverUrl, demoUrl: url }, uniqueEmail(label))
  await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
  await dialog.waitFor({ state: 'detached', timeout: 10_000 })
}

/** The chooser → 'Transfer from wallet' → 'Transfer from another network'. */
async function openBridge(page: Page, fund: string): Promise<Locator> {
  await page.getByRole('button', { name: fund }).click()
  const dialog = page.getByRole('dialog')
  await dialog
    .getByRole('heading', { name: 'Add funds to your E2E Bridge wallet' })
    .waitFor({ timeout: 30_000 })
  const transfer = dialog.getByRole('button', { name: 'Transfer from wallet' })
  await expect.poll(() => transfer.isEnabled(), { timeout: 10_000 }).toBe(true)
  await transfer.click()
  await dialog.getByRole('heading', { name: 'Transfer from wallet' }).waitFor()
  await dialog.getByRole('button', { name: 'Transfer from another network' }).click()
  await dialog.getByRole('heading', { name: 'Transfer from another network' }).waitFor()
  return dialog
}

describe('Ethereum → Solana: SOL bridged from the injected Ethereum wallet on Anvil', () => {
  let page: Page
  let wallet: TestEthereumWallet
  let solanaAddress: string

  beforeAll(async () => {
    page = await (await browser.newContext()).newPage()
    wallet = await installTestEthereumWallet(page, {
      chainId: foundry.id,
      rpcUrls: { [foundry.id]: anvil.rpcUrl },
    })
    // The external wallet holds 2 ETH on Anvil, paid by Anvil's unlocked dev account.
    await createWalletClient({ account: DEV_ACCOUNT, chain: chain(), transport: http() })
      .sendTransaction({ to: wallet.address, value: parseEther('2') })
      .then((hash) => node().waitForTransactionReceipt({ hash }))
    await logIn(page, 'bridge-eth')
    solanaAddress = await walletAddress(page, 'wallet-solana-0')
  }, 60_000)

  /**
   * Connects the wallet (first time) or picks it, keeps the amount, picks the
   * Anvil option; answers the quote the modal received and the deposit's hash
   * once it is on Anvil.
   */
  async function deposit(dialog: Locator): Promise<{ quote: QuoteAnswer; hash: Hash }> {
    await dialog.getByRole('button', { name: /Test Wallet/ }).click()
    await dialog
      .getByRole('heading', { name: 'Confirm or edit amount' })
      .waitFor({ timeout: 10_000 })
    expect(wallet.connected).toBe(true)
    expect(await dialog.getByLabel(/amount/i).inputValue()).toBe('0.5')
    const quoted = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/quote',
    )
    await dialog.getByRole('button', { name: 'Continue' }).click()
    const quote = await quoteAnswer(await quoted)
    // One option: the only funded chain of the test network, with what it pays.
    const option = dialog.getByRole('button', { name: /^Foundry/ })
    await option.waitFor({ timeout: 15_000 })
    // What leaves the wallet, formatted from Relay's amount and decimals (500 000 000 wei),
    // not its amountFormatted text ('5e-10').
    expect(quote.details.currencyIn).toMatchObject({
      amount: '500000000',
      amountFormatted: '5e-10',
    })
    expect(quote.details.currencyIn.currency.decimals).toBe(18)
    expect(await option.textContent()).toContain('Pay 0.0000000005 ETH · balance')
    // A list of buttons, drawn without list bullets.
    expect(
      await option.evaluate((el) => getComputedStyle(el.closest('li') ?? el).listStyleType),
    ).toBe('none')
    const sends = wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length
    await option.click()
    // The deposit: sent by the wallet, mined on Anvil; then the bridge is followed.
    await expect
      .poll(() => status(dialog).textContent(), { timeout: 30_000 })
      .toContain('Bridging to Solana')
    expect(wallet.requests.filter((r) => r.method === 'eth_sendTransaction').length).toBe(sends + 1)
    const block = await node().getBlock({ blockTag: 'latest' })
    const hash = block.transactions.at(-1) as Hash
    return { quote, hash }
  }

  it('deposit lands at the quote’s address; Relay pending then success; the success line; closes after 4 s', async () => {
    const dialog = await openBridge(page, 'Fund Solana wallet')
    const data = (q: QuoteAnswer) => q.steps[0]?.items[0]?.data
    const { quote, hash } = await deposit(dialog)
    // The quote asked: exactly 0.5 SOL (lamports) to the funded Solana wallet, from Anvil.
    expect(await lastQuoteBody()).toMatchObject({
      user: getAddress(wallet.address),
      recipient: solanaAddress,
      originChainId: foundry.id,
      destinationChainId: RELAY_SOLANA_DEVNET,
      originCurrency: '0x0000000000000000000000000000000000000000',
      amount: '500000000',
      tradeType: 'EXACT_OUTPUT',
    })
    // The deposit on Anvil is the quote's transaction, and its `to` received the value.
    const sent = await node().getTransaction({ hash })
    const receipt = await node().getTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect(sent.from.toLowerCase()).toBe(wallet.address.toLowerCase())
    expect(sent.to?.toLowerCase()).toBe(data(quote)?.to?.toLowerCase())
    expect(sent.value).toBe(BigInt(data(quote)?.value ?? -1))
    expect(sent.input).toBe(data(quote)?.data)
    const received = await node().getBalance({ address: data(quote)?.to as `0x${string}` })
    expect(received).toBeGreaterThanOrEqual(sent.value)

    // Relay does not know the deposit yet ({ requests: [] }), then reports it pending,
    // then done: the screen stays on 'Bridging to Solana' until success.
    await expect.poll(() => statusReads(hash), { timeout: 15_000 }).toBeGreaterThan(0)
    await relayReports(hash, ['pending', 'success'])
    // The spec's line: 'Success!' as the title, the rest under it.
    await dialog.getByRole('heading', { name: 'Success!' }).waitFor({ timeout: 15_000 })
    const success = dialog.getByText(
      'You’ve successfully added 0.5 SOL to your E2E Bridge wallet. It may take a minute before the funds are available to use.',
      { exact: true },
    )
    await success.waitFor()
    const shownAt = Date.now()
    // The 'pending' read came before the success one.
    expect(await statusReads(hash)).toBeGreaterThanOrEqual(3)
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    // Spec 03 §9: the success screen stays about 4 s before the modal closes.
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(3_000)
    await expect.poll(() => page.getByTestId('fund-result').textContent()).toBe('Solana: funded')
  })

  it('Relay refunds: the BRIDGE_FAILED message and the refund status link', async () => {
    const dialog = await openBridge(page, 'Fund Solana wallet')
    // Relay's answers for the deposit, as the page received them: the refund names the request.
    const answers: Promise<{ requests: { id: string; status: string }[] }>[] = []
    page.on('response', (r) => {
      if (new URL(r.url()).pathname === '/requests/v2') answers.push(r.json())
    })
    const { hash } = await deposit(dialog)
    await relayReports(hash, ['pending', 'refund'])
    await expect
      .poll(() => dialog.getByRole('alert').textContent(), { timeout: 15_000 })
      .toContain(BRIDGE_FAILED)
    const refunded = (await Promise.all(answers))
      .flatMap((a) => a.requests)
      .find((r) => r.status === 'refund')
    const requestId = refunded?.id ?? ''
    expect(requestId).toMatch(/^0x[0-9a-f]{64}$/)
    // Back on the amount, with the message and Relay's page for the request (a test cluster:
    // Relay's testnets site).
    await dialog.getByRole('heading', { name: 'Confirm or edit amount' }).waitFor()
    const link = dialog.getByRole('link', { name: 'Check the refund status' })
    expect(await link.getAttribute('href')).toBe(
      `https://testnets.relay.link/transaction/${requestId}`,
    )
    expect(await link.getAttribute('target')).toBe('_blank')
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
  })
})

describe('Solana → Ethereum: ETH bridged from the injected Solana wallet on the ledger', () => {
  let page: Page
  let wallet: TestSolanaWallet
  let ethereumAddress: string

  beforeAll(async () => {
    page = await (await browser.newContext()).newPage()
    wallet = await installTestSolanaWallet(page, {
      name: 'Test Solana Wallet',
      features: { signTransaction: true },
    })
    await logIn(page, 'bridge-sol')
    ethereumAddress = await walletAddress(page)
  }, 60_000)

  it('deposit confirmed on the ledger, Relay pending then success; the success line; closes after 4 s', async () => {
    ledger.airdrop(wallet.address, 5_000_000_000n)
    // 'Local (Anvil)' (the demo's default funding chain) is a test network: the bridge pays
    // from the app's test cluster, the ledger.
    const dialog = await openBridge(page, 'Fund Ethereum wallet')
    await dialog.getByRole('button', { name: /^Test Solana Wallet/ }).click()
    await dialog
      .getByRole('heading', { name: 'Confirm or edit amount' })
      .waitFor({ timeout: 10_000 })
    expect(wallet.connected).toBe(true)
    // The local Relay prices an exact output 1:1 in base units (wei → lamports): 2 gwei asks a
    // 2 SOL deposit, which the wallet can pay (docs: the fake's pricing).
    await dialog.getByLabel(/amount/i).fill('0.000000002')
    const quoted = page.waitForResponse(
      (r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/quote',
    )
    await dialog.getByRole('button', { name: 'Continue' }).click()
    const quote = await quoteAnswer(await quoted)
    expect(await lastQuoteBody()).toMatchObject({
      user: wallet.address,
      recipient: getAddress(ethereumAddress),
      originChainId: RELAY_SOLANA_DEVNET,
      destinationChainId: foundry.id,
      originCurrency: '11111111111111111111111111111111',
      destinationCurrency: '0x0000000000000000000000000000000000000000',
      amount: '2000000000',
      tradeType: 'EXACT_OUTPUT',
    })
    // The one option: the app's test cluster (the demo's 'localnet', the ledger).
    const option = dialog.getByRole('button', { name: /^localnet/ })
    await option.waitFor({ timeout: 15_000 })
    expect(quote.details.currencyIn).toMatchObject({ amount: '2000000000' })
    expect(quote.details.currencyIn.currency.decimals).toBe(9)
    expect(await option.textContent()).toContain('Pay 2 SOL · balance 5 SOL')
    await option.click()
    await expect
      .poll(() => status(dialog).textContent(), { timeout: 30_000 })
      .toContain('Bridging to')
    const signed = wallet.requests.filter((r) => r.method === 'solana:signTransaction')
    expect(signed).toHaveLength(1)
    // The deposit landed on the ledger: the quote's instruction moved 2 SOL to its account.
    const instruction = quote.steps[0]?.items[0]?.data.instructions?.[0]
    const depositAccount = instruction?.keys[1]?.pubkey as string
    expect(ledger.svm.getBalance(depositAccount as never)).toBe(2_000_000_000n)
    expect(ledger.svm.getBalance(wallet.address as never)).toBe(
      5_000_000_000n - 2_000_000_000n - 5_000n,
    )
    // The modal follows the deposit by its signature (base58, not an 0x hash).
    let signature = ''
    await expect
      .poll(
        async () => {
          const reads = (await (
            await fetch(`${bridge.controlUrl}/status-reads`)
          ).json()) as string[]
          signature = reads.filter((read) => !read.startsWith('0x')).at(-1) ?? ''
          return signature
        },
        { timeout: 15_000 },
      )
      .toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    await relayReports(signature, ['pending', 'success'])
    await dialog.getByRole('heading', { name: 'Success!' }).waitFor({ timeout: 15_000 })
    const success = dialog.getByText(
      'You’ve successfully added 0.000000002 ETH to your E2E Bridge wallet. It may take a minute before the funds are available to use.',
      { exact: true },
    )
    await success.waitFor()
    const shownAt = Date.now()
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    expect(Date.now() - shownAt).toBeGreaterThanOrEqual(3_000)
    await expect.poll(() => page.getByTestId('fund-result').textContent()).toBe('Ethereum: funded')
  })
})

/** Relay's `POST /quote` answer, the parts this test reads. */
interface QuoteAnswer {
  steps: {
    items: {
      data: {
        to?: string
        value?: string
        data?: string
        instructions?: { keys: { pubkey: string }[] }[]
      }
    }[]
  }[]
  details: {
    currencyIn: { amount: string; amountFormatted: string; currency: { decimals: number } }
  }
}

async function quoteAnswer(response: Response): Promise<QuoteAnswer> {
  expect(response.status()).toBe(200)
  return (await response.json()) as QuoteAnswer
}
