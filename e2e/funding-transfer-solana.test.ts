import { type SolanaLedger, startSolanaLedger } from '@latchkey/server/test/solana'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'
import { installTestSolanaWallet, type TestSolanaWallet } from './wallets/solana.ts'

// Transfer from an external Solana wallet (spec 03 "Transfer from wallet",
// the Solana transfer's confirmations) end to end: the demo's "Fund Solana
// wallet" on the funding app, the injected Wallet Standard test wallet
// connected from the picker, the transaction built in the page on the
// LiteSVM ledger, signed by the wallet, sent and confirmed there.
const { serverUrl, demoUrl, fundingAppId } = inject('e2e')

let browser: Browser
let ledger: SolanaLedger

beforeAll(async () => {
  ;[browser, ledger] = await Promise.all([launchChromium(), startSolanaLedger()])
}, 60_000)
afterAll(async () => {
  await browser?.close()
  await ledger?.stop()
})

const lamports = (address: string) => ledger.svm.getBalance(address as never) ?? 0n

describe('Transfer from an external Solana wallet on the ledger', () => {
  let page: Page
  let funded: string
  let wallet: TestSolanaWallet

  beforeAll(async () => {
    page = await (await browser.newContext()).newPage()
    wallet = await installTestSolanaWallet(page, {
      name: 'Test Solana Wallet',
      features: { signTransaction: true },
    })
    const url = `${demoUrl}/?appId=${fundingAppId}&solanaRpcUrl=${encodeURIComponent(ledger.rpcUrl)}`
    const dialog = await logInToDemo(page, { serverUrl, demoUrl: url }, uniqueEmail('fund-sol'))
    await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    funded = await walletAddress(page, 'wallet-solana-0')
  }, 60_000)

  const alert = (dialog: Locator) => dialog.getByRole('alert')

  it('refuses a wallet without the SOL, then the user’s no, then sends and closes after Success!', async () => {
    await page.getByRole('button', { name: 'Fund Solana wallet' }).click()
    const dialog = page.getByRole('dialog')
    await dialog
      .getByRole('heading', { name: 'Add funds to your E2E Funding wallet' })
      .waitFor({ timeout: 30_000 })
    const transfer = dialog.getByRole('button', { name: 'Transfer from wallet' })
    await expect.poll(() => transfer.isEnabled(), { timeout: 10_000 }).toBe(true)
    await transfer.click()
    await dialog.getByRole('heading', { name: 'Transfer from wallet' }).waitFor()
    // Not connected yet: offered among the installed wallets, connected right here.
    await dialog.getByRole('button', { name: /^Test Solana Wallet/ }).click()
    await dialog
      .getByRole('heading', { name: 'Confirm or edit amount' })
      .waitFor({ timeout: 10_000 })
    expect(wallet.connected).toBe(true)
    expect(await dialog.getByLabel('Amount').inputValue()).toBe('0.5')
    const signs = () => wallet.requests.filter((r) => r.method === 'solana:signTransaction').length

    // The wallet holds nothing: refused before it is asked.
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await expect
      .poll(() => alert(dialog).textContent(), { timeout: 10_000 })
      .toBe(`Wallet ${wallet.address} does not have enough funds.`)
    expect(signs()).toBe(0)

    // Funded, but the user says no in the wallet.
    ledger.airdrop(wallet.address, 2_000_000_000n)
    wallet.setBehaviour({ rejectSign: 1 })
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await expect
      .poll(() => alert(dialog).textContent(), { timeout: 10_000 })
      .toBe('Transaction was rejected by the user')
    expect(signs()).toBe(1)
    expect(lamports(funded)).toBe(0n)

    // Signed: the ledger confirms it, Success!, and the modal closes 4 s later.
    await dialog.getByRole('button', { name: 'Continue' }).click()
    await dialog.getByRole('heading', { name: 'Success!' }).waitFor({ timeout: 30_000 })
    expect(signs()).toBe(2)
    expect(lamports(funded)).toBe(500_000_000n)
    // 0.5 SOL and the 5,000-lamport signature fee left the external wallet.
    expect(lamports(wallet.address)).toBe(2_000_000_000n - 500_000_000n - 5_000n)
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    await expect.poll(() => page.getByTestId('fund-result').textContent()).toBe('Solana: funded')
  })
})
