import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureApp, type RunningServer, startServer } from '@latchkey/server'
import {
  type AccountAbstractionChain,
  deployVerifyingPaymaster07,
  startAccountAbstractionChain,
} from '@latchkey/server/test/account-abstraction'
import type { Browser, Locator, Page } from 'playwright-core'
import {
  type Address,
  createPublicClient,
  type Hex,
  http,
  type PublicClient,
  parseEventLogs,
} from 'viem'
import { entryPoint07Abi } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail } from './browser.ts'
import { latchkeyCli } from './cli.ts'

// Smart wallets in Chromium (issue 24, docs/smart-wallets.md): the demo's
// Smart wallet panel against the whole stack — an ERC-4337 chain of this
// file's own (Anvil on Prague with the audited contracts, and the Alto
// bundler), a Latchkey server of its own whose app has Safe smart wallets on
// that chain, sponsored by the server's VerifyingPaymaster (its signer made
// and the chain set with the real `latchkey apps smart-wallets` CLI). The
// embedded wallet signs in the enclave; the confirm screen says 'Sponsored';
// the user operations land, paid by the paymaster's deposit (the account
// never holds any ETH).

const { demoUrl } = inject('e2e')
const APP_ID = 'e2esmartwalletaaaaaaaaaaa'
const MESSAGE = 'Hello from a Latchkey smart wallet'

let aa: AccountAbstractionChain
let chain: PublicClient
let server: RunningServer
let dataDir: string
let browser: Browser

/** Runs `latchkey …` on this file's server's SQLite database, in this process (e2e/cli.ts); its stdout. */
const latchkey = (...argv: string[]) => latchkeyCli({ dataDir }, ...argv)

beforeAll(async () => {
  ;[browser, aa] = await Promise.all([
    launchChromium(),
    startAccountAbstractionChain({ safe: true }),
  ])
  chain = createPublicClient({ chain: aa.chain, transport: http(aa.rpcUrl), pollingInterval: 100 })
  dataDir = await mkdtemp(join(tmpdir(), 'latchkey-smart-wallet-'))
  server = await startServer({
    port: 0,
    hostname: '127.0.0.1',
    dataDir,
    forceDevMailbox: true,
    // The smart_wallet link checks the account's ERC-6492 signature on this chain.
    chainRpcUrls: { [aa.chain.id]: aa.rpcUrl },
    logger: { info() {}, warn() {}, error: (m: string) => console.error(m) },
  })
  await ensureApp(server.server.db, {
    id: APP_ID,
    name: 'E2E Smart Wallets',
    origins: [demoUrl],
    settings: { login_methods: { email: true } },
  })
  // The operator's steps (docs/smart-wallets.md): the app's paymaster signer,
  // a VerifyingPaymaster deployed with it, then the chain and the type.
  const { address: signer } = JSON.parse(
    await latchkey('apps', 'smart-wallets', 'paymaster-key', APP_ID, '--json'),
  ) as { address: Address }
  const paymaster = await deployVerifyingPaymaster07(aa.deployer, { verifyingSigner: signer })
  await latchkey(
    'apps',
    'smart-wallets',
    'add-chain',
    APP_ID,
    '--chain-id',
    String(aa.chain.id),
    '--bundler-url',
    aa.bundlerUrl,
    '--paymaster-address',
    paymaster.address,
  )
  await latchkey('apps', 'smart-wallets', 'set', APP_ID, '--enable', '--type', 'safe')
}, 120_000)
afterAll(async () => {
  await browser?.close()
  await server?.close()
  await aa?.stop()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

/** With E2E_SCREENSHOTS=<dir>, the screens as a user sees them (for a look, not asserted). */
async function screenshot(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOTS
  if (dir) await page.screenshot({ path: join(dir, `${name}.png`) })
}

const row = (dialog: Locator, label: string) =>
  dialog
    .locator('.lk-tx-row')
    .filter({ has: dialog.page().locator(`dt:text-is("${label}")`) })
    .locator('dd')

async function press(dialog: Locator, name: string) {
  const button = dialog.getByRole('button', { name, exact: true })
  await expect.poll(() => button.isEnabled(), { timeout: 60_000 }).toBe(true)
  await button.click()
}

/** The value the panel shows under `label` once the action is done. */
async function result(panel: Locator, label: string): Promise<string> {
  const value = panel.getByTestId('smart-wallet-result').filter({ hasText: `${label}:` })
  await value.locator('code').waitFor({ timeout: 60_000 })
  return ((await value.locator('code').textContent()) ?? '').trim()
}

/** The user operations the bundle transaction `hash` carried for `sender`, with their outcome. */
async function operationsOf(hash: Hex, sender: Address) {
  const receipt = await chain.getTransactionReceipt({ hash })
  const events = parseEventLogs({
    abi: entryPoint07Abi,
    eventName: 'UserOperationEvent',
    logs: receipt.logs,
  })
  return events
    .filter((e) => e.args.sender.toLowerCase() === sender.toLowerCase())
    .map((e) => ({ success: e.args.success, paymaster: e.args.paymaster }))
}

describe("the embedded wallet's smart wallet", () => {
  let page: Page
  let panel: Locator
  let address: Address

  beforeAll(async () => {
    page = await (await browser.newContext()).newPage()
    const url =
      `${demoUrl}/?appId=${APP_ID}&apiUrl=${encodeURIComponent(server.url)}` +
      `&rpcUrl=${encodeURIComponent(aa.rpcUrl)}`
    const dialog = await logInToDemo(
      page,
      { serverUrl: server.url, demoUrl: url },
      uniqueEmail('smart'),
    )
    await dialog.getByRole('heading', { name: /^Welcome/ }).waitFor({ timeout: 30_000 })
    await dialog.waitFor({ state: 'detached', timeout: 10_000 })
    panel = page.getByTestId('smart-wallet-panel')
    const shown = panel.getByTestId('smart-wallet-address')
    await shown.waitFor({ timeout: 60_000 })
    address = ((await shown.textContent()) ?? '').trim() as Address
  }, 120_000)

  it('shows the counterfactual address, linked to the user, and that the app pays the gas', async () => {
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    // Not deployed yet: the first user operation deploys it.
    expect(await chain.getCode({ address })).toBeUndefined()
    expect(await panel.getByTestId('smart-wallet-gas').textContent()).toBe('Sponsored')
    expect(await chain.getBalance({ address })).toBe(0n)
    // The smart_wallet account the server recorded, in the demo's linked accounts.
    const linked = page.getByRole('table', { name: 'Linked accounts' }).getByRole('row', {
      name: /smart_wallet/,
    })
    await expect.poll(() => linked.textContent()).toContain('(safe 1.4.1)')
    expect((await linked.textContent())?.toLowerCase()).toContain(address.slice(2, 8).toLowerCase())
  })

  it("'Send 0 ETH to self': the confirm screen says 'Sponsored'; one sponsored operation deploys the account", async () => {
    await panel.getByRole('button', { name: 'Send 0 ETH to self' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Confirm transaction' }).waitFor({ timeout: 30_000 })
    await expect
      .poll(() => row(dialog, 'Estimated fee').textContent(), { timeout: 60_000 })
      .toBe('Sponsored')
    expect(await row(dialog, 'Network').textContent()).toBe('Foundry')
    await screenshot(page, 'smart-wallet-confirm-sponsored')
    await press(dialog, 'Approve')
    await dialog
      .getByRole('heading', { name: 'Transaction complete!' })
      .waitFor({ timeout: 60_000 })
    await press(dialog, 'All Done')
    const hash = (await result(panel, 'Sent')) as Hex
    const operations = await operationsOf(hash, address)
    expect(operations).toEqual([{ success: true, paymaster: expect.any(String) }])
    expect(operations[0]?.paymaster).not.toBe('0x0000000000000000000000000000000000000000')
    expect(await chain.getCode({ address })).toMatch(/^0x[0-9a-f]+$/)
    // The paymaster's deposit paid: the account still holds nothing.
    expect(await chain.getBalance({ address })).toBe(0n)
  })

  it("'Batch of two': '(1 / 2)' then '(2 / 2)', sent as ONE user operation", async () => {
    await panel.getByRole('button', { name: 'Batch of two' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: /\(1 \/ 2\)/ }).waitFor({ timeout: 30_000 })
    await expect
      .poll(() => row(dialog, 'Estimated fee').textContent(), { timeout: 60_000 })
      .toBe('Sponsored')
    await press(dialog, 'Continue')
    await dialog.getByRole('heading', { name: /\(2 \/ 2\)/ }).waitFor({ timeout: 30_000 })
    await expect
      .poll(() => row(dialog, 'Estimated fee').textContent(), { timeout: 60_000 })
      .toBe('Sponsored')
    await screenshot(page, 'smart-wallet-batch-2-of-2')
    await press(dialog, 'Approve')
    await dialog
      .getByRole('heading', { name: 'Transaction complete!' })
      .waitFor({ timeout: 60_000 })
    await press(dialog, 'All Done')
    const hash = (await result(panel, 'Batch sent')) as Hex
    expect(await operationsOf(hash, address)).toEqual([
      { success: true, paymaster: expect.any(String) },
    ])
  })

  it("signs a message as the smart account: the deployed Safe's ERC-1271 signature verifies", async () => {
    await panel.getByRole('button', { name: 'Sign message' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Sign and continue' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    const signature = (await result(panel, 'Smart wallet signature')) as Hex
    expect(await chain.verifyMessage({ address, message: MESSAGE, signature })).toBe(true)
  })
})
