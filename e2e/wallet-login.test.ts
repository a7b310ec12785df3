import type { Browser } from 'playwright-core'
import type { Hex } from 'viem'
import { generatePrivateKey } from 'viem/accounts'
import { parseSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, userId } from './browser.ts'
import {
  methodsOf,
  newWalletPage,
  openWalletLogin,
  personalSignText,
  unlinkWalletButton,
  waitForModalClosed,
  walletDemoUrl,
  walletRow,
} from './wallet-helpers.ts'
import { installTestEthereumWallet, type TestEthereumWalletOptions } from './wallets/ethereum.ts'
import { installTestSolanaWallet, type TestSolanaWalletOptions } from './wallets/solana.ts'

// External-wallet login in the demo against the real server (spec 01 §2
// "Wallet connecting", §4 "Wallet connection", §8 "Wallet"): Sign-In With
// Ethereum and Solana with test wallets holding real keys, so a login only
// succeeds when the server verified the signature.

const { demoUrl, walletAppId } = inject('e2e')
const url = walletDemoUrl(demoUrl, walletAppId)
const host = new URL(demoUrl).host

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

/** A fresh page with a test Ethereum wallet, on the demo, the wallet list open. */
async function ethereumLogin(options: TestEthereumWalletOptions = {}) {
  const { context, page } = await newWalletPage(browser)
  const wallet = await installTestEthereumWallet(page, options)
  await page.goto(url)
  const dialog = await openWalletLogin(page)
  return { context, page, dialog, wallet }
}

async function solanaLogin(options: TestSolanaWalletOptions = {}) {
  const { context, page } = await newWalletPage(browser)
  const wallet = await installTestSolanaWallet(page, options)
  await page.goto(url)
  const dialog = await openWalletLogin(page)
  return { context, page, dialog, wallet }
}

describe('Ethereum wallet login (SIWE)', () => {
  it('signs up a new user, then logs the same wallet in again as the same user', async () => {
    const privateKey: Hex = generatePrivateKey()
    // On Base (8453), one of the demo's chains: signed on that chain, no switch.
    const first = await ethereumLogin({
      privateKey,
      chainId: 8453,
      behaviour: { signDelayMs: 1_000 },
    })
    const { page, dialog, wallet } = first
    const row = walletRow(dialog, 'test')
    await expect.poll(() => row.getAttribute('aria-label')).toBe('Test Wallet')
    await expect.poll(() => row.textContent()).toMatch(/Detected[\s\S]*Ethereum/)
    await row.click()
    // The wallet takes a second to sign: the prompt is on screen meanwhile.
    await dialog.getByRole('heading', { name: 'Sign to verify' }).waitFor()
    await dialog.getByRole('heading', { name: 'Successfully connected with Test Wallet' }).waitFor()
    await waitForModalClosed(dialog)
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    const id = await userId(page)
    expect(id).toMatch(/^did:latchkey:/)
    // The linked account is the address the server recovered from the signature.
    await unlinkWalletButton(page, wallet.address, 'ethereum', 'test').waitFor()

    // What was signed: an EIP-4361 message for this page, this address and the wallet's chain.
    const signs = wallet.requests.filter((r) => r.method === 'personal_sign')
    expect(signs).toHaveLength(1)
    const [signRequest] = signs
    if (!signRequest) throw new Error('no personal_sign')
    const siwe = parseSiweMessage(personalSignText(signRequest))
    expect(siwe).toMatchObject({
      domain: host,
      address: wallet.address,
      chainId: 8453,
      uri: `http://${host}`,
      version: '1',
    })
    expect(siwe.nonce).toMatch(/^[A-Za-z0-9]{8,}$/)
    // No network switch for a wallet already on a supported chain.
    expect(methodsOf(wallet.requests)).not.toContain('wallet_switchEthereumChain')
    await first.context.close()

    // Another browser, the same key: the same user.
    const second = await ethereumLogin({ privateKey })
    expect(second.wallet.address).toBe(wallet.address)
    await walletRow(second.dialog, 'test').click()
    await second.dialog
      .getByRole('heading', { name: 'Successfully connected with Test Wallet' })
      .waitFor()
    await waitForModalClosed(second.dialog)
    await second.page.getByRole('heading', { name: "You're logged in" }).waitFor()
    expect(await userId(second.page)).toBe(id)
    await unlinkWalletButton(second.page, wallet.address, 'ethereum', 'test').waitFor()
    await second.context.close()
  })

  it('switches a wallet on an unsupported chain (137) to the default chain before signing', async () => {
    const { context, page, dialog, wallet } = await ethereumLogin({ chainId: 137 })
    await walletRow(dialog, 'test').click()
    await dialog.getByRole('heading', { name: 'Successfully connected with Test Wallet' }).waitFor()
    await waitForModalClosed(dialog)
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()

    const methods = methodsOf(wallet.requests)
    const switchAt = methods.indexOf('wallet_switchEthereumChain')
    const signAt = methods.indexOf('personal_sign')
    expect(switchAt).toBeGreaterThanOrEqual(0)
    expect(signAt).toBeGreaterThan(switchAt)
    expect(wallet.requests[switchAt]?.params).toEqual([{ chainId: '0x1' }])
    expect(wallet.chainId).toBe(1)
    const signRequest = wallet.requests[signAt]
    if (!signRequest) throw new Error('no personal_sign')
    expect(parseSiweMessage(personalSignText(signRequest)).chainId).toBe(1)
    await unlinkWalletButton(page, wallet.address, 'ethereum', 'test').waitFor()
    await context.close()
  })

  it('allows 2 retries after a rejected signature, then only "Use a different wallet"', async () => {
    const { context, dialog, wallet } = await ethereumLogin({ behaviour: { rejectSign: true } })
    const signCount = () => methodsOf(wallet.requests).filter((m) => m === 'personal_sign').length
    const retry = dialog.getByRole('button', { name: 'Retry' })
    const other = dialog.getByRole('button', { name: 'Use a different wallet' })

    await walletRow(dialog, 'test').click()
    await dialog.getByRole('heading', { name: 'You rejected the request' }).waitFor()
    await other.waitFor()
    expect(signCount()).toBe(1)

    await retry.click()
    await expect.poll(signCount).toBe(2)
    await dialog.getByRole('heading', { name: 'You rejected the request' }).waitFor()
    await retry.waitFor()

    await retry.click()
    await expect.poll(signCount).toBe(3)
    await dialog.getByRole('heading', { name: 'Unable to connect wallet' }).waitFor()
    expect(await retry.count()).toBe(0)
    await other.click()
    await dialog.getByRole('heading', { name: 'Log in with a wallet' }).waitFor()
    await walletRow(dialog, 'test').waitFor()
    // Nothing was verified: the demo is still logged out.
    expect(signCount()).toBe(3)
    await context.close()
  })

  it('logs in on Retry after one rejected signature', async () => {
    const { context, page, dialog, wallet } = await ethereumLogin({ behaviour: { rejectSign: 1 } })
    await walletRow(dialog, 'test').click()
    await dialog.getByRole('heading', { name: 'You rejected the request' }).waitFor()
    await dialog.getByRole('button', { name: 'Retry' }).click()
    await dialog.getByRole('heading', { name: 'Successfully connected with Test Wallet' }).waitFor()
    await waitForModalClosed(dialog)
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    await unlinkWalletButton(page, wallet.address, 'ethereum', 'test').waitFor()
    expect(methodsOf(wallet.requests).filter((m) => m === 'personal_sign')).toHaveLength(2)
    await context.close()
  })
})

describe('Solana wallet login (SIWS)', () => {
  it('logs in with a wallet that signs in itself (solana:signIn)', async () => {
    const { context, page, dialog, wallet } = await solanaLogin()
    const row = walletRow(dialog, 'test_solana')
    await expect.poll(() => row.textContent()).toMatch(/Detected[\s\S]*Solana/)
    await row.click()
    await dialog
      .getByRole('heading', { name: 'Successfully connected with Test Solana Wallet' })
      .waitFor()
    await waitForModalClosed(dialog)
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    await unlinkWalletButton(page, wallet.address, 'solana', 'test_solana').waitFor()

    const signIn = wallet.requests.find((r) => r.method === 'solana:signIn')
    if (!signIn) throw new Error('the wallet was not asked to sign in')
    expect(methodsOf(wallet.requests)).not.toContain('solana:signMessage')
    // The server's sign-in input names this page's host and the wallet's address.
    const { inputs } = signIn.params as { inputs: Array<{ domain?: string; address?: string }> }
    expect(inputs[0]).toMatchObject({ domain: host, address: wallet.address })
    await context.close()
  })

  it('logs in with a wallet that can only sign messages (solana:signMessage)', async () => {
    const { context, page, dialog, wallet } = await solanaLogin({
      features: { signIn: false, signMessage: true },
    })
    await walletRow(dialog, 'test_solana').click()
    await dialog
      .getByRole('heading', { name: 'Successfully connected with Test Solana Wallet' })
      .waitFor()
    await waitForModalClosed(dialog)
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    await unlinkWalletButton(page, wallet.address, 'solana', 'test_solana').waitFor()

    const signMessage = wallet.requests.find((r) => r.method === 'solana:signMessage')
    if (!signMessage) throw new Error('the wallet was not asked to sign a message')
    const [message] = signMessage.params as Uint8Array[]
    const text = new TextDecoder().decode(message)
    expect(text).toMatch(
      new RegExp(
        `^${host.replace(/\./g, '\\.')} wants you to sign in with your Solana account:\\n`,
      ),
    )
    expect(text).toContain(`\n${wallet.address}\n`)
    expect(methodsOf(wallet.requests)).not.toContain('solana:signIn')
    await context.close()
  })
})
