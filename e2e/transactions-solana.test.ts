import { type SolanaLedger, startSolanaLedger } from '@latchkey/server/test/solana'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, walletAddress } from './browser.ts'

// The demo's Solana buttons against the ledger stand-in (LiteSVM behind
// Solana's JSON-RPC): the confirm screen, the enclave's signature, the
// transfer confirmed on the ledger.
const { serverUrl, demoUrl } = inject('e2e')
// The demo's fixed recipient (apps/demo/src/components/SendPanel.tsx).
const SOL_RECIPIENT = '7EcDhSYGxXyscszYEp35KHN8vvw3svAuLKTzXwCFLtV'

let browser: Browser
let ledger: SolanaLedger

beforeAll(async () => {
  ;[browser, ledger] = await Promise.all([launchChromium(), startSolanaLedger()])
})
afterAll(async () => {
  await browser?.close()
  await ledger?.stop()
})

async function balance(address: string): Promise<bigint> {
  const response = await fetch(ledger.rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [address] }),
  })
  return BigInt(((await response.json()) as { result: { value: number } }).result.value)
}

async function logIn(page: Page): Promise<string> {
  const url = `${demoUrl}/?solanaRpcUrl=${encodeURIComponent(ledger.rpcUrl)}`
  const dialog = await logInToDemo(page, { serverUrl, demoUrl: url }, uniqueEmail('sol'))
  await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
  await dialog.waitFor({ state: 'detached', timeout: 10_000 })
  return walletAddress(page, 'wallet-solana-0')
}

async function result(page: Page, label: string): Promise<string> {
  const value = page
    .getByTestId('send-result')
    .filter({ hasText: `${label}:` })
    .locator('code')
  await value.waitFor({ timeout: 30_000 })
  return ((await value.textContent()) ?? '').trim()
}

describe('Solana transactions from the embedded wallet', () => {
  it('sends SOL: the confirm screen, the enclave signs, the ledger confirms it', async () => {
    const page = await (await browser.newContext()).newPage()
    const address = await logIn(page)
    // Without funds first: Approve waits for 'Add funds on Solana to complete transaction.'
    await page.getByRole('button', { name: 'Send 0.01 SOL', exact: true }).click()
    let dialog = page.getByRole('dialog')
    await dialog
      .getByText('Add funds on Solana to complete transaction.')
      .waitFor({ timeout: 30_000 })
    expect(await dialog.getByRole('button', { name: 'Approve', exact: true }).isDisabled()).toBe(
      true,
    )
    await dialog.getByRole('button', { name: 'Close' }).click()
    await dialog.waitFor({ state: 'detached' })

    await page.getByRole('button', { name: 'Get 1 test SOL', exact: true }).click()
    await result(page, 'Airdropped')
    expect(await balance(address)).toBe(1_000_000_000n)

    await page.getByRole('button', { name: 'Send 0.01 SOL', exact: true }).click()
    dialog = page.getByRole('dialog')
    const approve = dialog.getByRole('button', { name: 'Approve', exact: true })
    await expect.poll(() => approve.isEnabled(), { timeout: 30_000 }).toBe(true)
    const text = await dialog.innerText()
    expect(text).toContain('0.01 SOL')
    expect(text).toContain('localnet')
    const dir = process.env.E2E_SCREENSHOTS
    if (dir) await page.screenshot({ path: `${dir}/solana-confirm.png` })
    await approve.click()
    await dialog
      .getByRole('heading', { name: 'Transaction complete!' })
      .waitFor({ timeout: 30_000 })
    if (dir) await page.screenshot({ path: `${dir}/solana-receipt.png` })
    await dialog.getByRole('button', { name: 'All Done' }).click()

    expect(await result(page, 'SOL sent')).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    expect(await balance(SOL_RECIPIENT)).toBe(10_000_000n)
    // 0.01 SOL and the 5,000-lamport signature fee left the wallet.
    expect(await balance(address)).toBe(1_000_000_000n - 10_000_000n - 5_000n)
  })
})
