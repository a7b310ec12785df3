import { type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import { generate } from 'otplib'
import type { Browser, Locator, Page } from 'playwright-core'
import { createPublicClient, http, parseEther } from 'viem'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, typeCode, uniqueEmail, walletAddress } from './browser.ts'
import { enrollAuthenticatorApp } from './mfa-helpers.ts'

// MFA gates transactions (issue 19; docs/mfa.md, docs/transactions.md): a user
// with an authenticator app approves a transfer on a new session, and the
// verification comes up over the confirm screen before the enclave signs.
const { serverUrl, demoUrl, mfaAppId } = inject('e2e')
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const email = uniqueEmail('txmfa')
const totp = (secret: string, offset = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + offset * 30 })

let browser: Browser
let anvil: AnvilNode
let page: Page
let dialog: Locator
let pageUrl = ''

beforeAll(async () => {
  ;[browser, anvil] = await Promise.all([launchChromium(), startAnvil()])
  // The MFA app's page and server on one site (localhost), as in mfa.test.ts.
  const apiUrl = serverUrl.replace('127.0.0.1', 'localhost')
  pageUrl = `${demoUrl.replace('127.0.0.1', 'localhost')}/?appId=${mfaAppId}&apiUrl=${encodeURIComponent(apiUrl)}&rpcUrl=${encodeURIComponent(anvil.rpcUrl)}`
  page = await (await browser.newContext()).newPage()
  dialog = await logInToDemo(page, { serverUrl, demoUrl: pageUrl }, email)
  await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
  await dialog.waitFor({ state: 'detached', timeout: 10_000 })
})
afterAll(async () => {
  await browser?.close()
  await anvil?.stop()
})

describe('MFA over the confirm screen', () => {
  it('asks for the authenticator code after Approve, then the enclave signs and the transfer lands', async () => {
    const secret = await enrollAuthenticatorApp(page, dialog, (key) => totp(key))

    // A new session: its MFA window starts closed.
    await page.getByRole('button', { name: 'Log out' }).click()
    dialog = await logInToDemo(page, { serverUrl, demoUrl: pageUrl }, email)
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    const address = (await walletAddress(page)) as `0x${string}`
    await page.getByRole('button', { name: 'Get 10 test ETH', exact: true }).click()
    await page.getByTestId('send-result').filter({ hasText: 'Funded:' }).waitFor()

    await page.getByRole('button', { name: 'Send ETH', exact: true }).click()
    const approve = dialog.getByRole('button', { name: 'Approve', exact: true })
    await expect.poll(() => approve.isEnabled(), { timeout: 30_000 }).toBe(true)
    await approve.click()
    await dialog
      .getByRole('heading', { name: 'Enter verification code' })
      .waitFor({ timeout: 30_000 })
    // The setup's step is spent: the next step's code.
    await typeCode(page, await totp(secret, 1))
    await dialog
      .getByRole('heading', { name: 'Transaction complete!' })
      .waitFor({ timeout: 30_000 })
    await dialog.getByRole('button', { name: 'All Done' }).click()
    const hash = page.getByTestId('send-result').filter({ hasText: 'ETH sent:' }).locator('code')
    await hash.waitFor()

    const chain = createPublicClient({ transport: http(anvil.rpcUrl) })
    const receipt = await chain.getTransactionReceipt({
      hash: ((await hash.textContent()) ?? '').trim() as `0x${string}`,
    })
    expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())
    expect(await chain.getBalance({ address: RECIPIENT })).toBeGreaterThanOrEqual(
      parseEther('10000.01'),
    )
  })
})
