import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ensureApp, type RunningServer, startServer } from '@latchkey/server'
import {
  type FakeFarcasterRelay,
  type FarcasterChain,
  signInWithFarcasterApp,
  startFakeFarcasterRelay,
  startFarcasterChain,
} from '@latchkey/server/test/farcaster'
import { ed25519 } from '@noble/curves/ed25519.js'
import type { Browser } from 'playwright-core'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import {
  type FakeFarcasterApi,
  startFakeFarcasterApi,
} from '../packages/server/src/test/fake-farcaster-api.ts'
import { launchChromium } from './browser.ts'

// The Farcaster signer in Chromium (spec 03 "Farcaster signer"): a server of
// this file's own whose Farcaster peers are local — the Connect relay, an
// IdRegistry on Anvil and the signed-key-request API — logs a user in with
// Farcaster, the demo's panel opens 'Add a signer to Farcaster', the user's
// Farcaster app approves (the fake API), and the enclave signs a message hash
// whose ed25519 signature this test verifies against the approved key.

const { demoUrl } = inject('e2e')
const APP_ID = 'e2efarcastersigneraaaaaaa'
const APP_FID = 4_242

let relay: FakeFarcasterRelay
let chain: FarcasterChain
let api: FakeFarcasterApi
let server: RunningServer
let dataDir: string
let browser: Browser

beforeAll(async () => {
  const custodyKey = generatePrivateKey()
  relay = await startFakeFarcasterRelay()
  chain = await startFarcasterChain()
  api = await startFakeFarcasterApi({
    custody: { [APP_FID]: privateKeyToAccount(custodyKey).address },
  })
  dataDir = await mkdtemp(join(tmpdir(), 'latchkey-farcaster-signer-'))
  server = await startServer({
    port: 0,
    hostname: '127.0.0.1',
    dataDir,
    forceDevMailbox: true,
    farcaster: {
      relayUrl: relay.url,
      optimismRpcUrl: chain.rpcUrl,
      idRegistryAddress: chain.idRegistryAddress,
      apiUrl: api.url,
    },
    logger: { info() {}, warn() {}, error: (m: string) => console.error(m) },
  })
  await ensureApp(server.server.db, {
    id: APP_ID,
    name: 'E2E Farcaster signer',
    origins: [demoUrl],
    settings: { login_methods: { email: true, farcaster: true } },
  })
  await server.server.setAppProviderCredentials(APP_ID, {
    provider: 'farcaster-signer',
    request_fid: String(APP_FID),
    custody_key: custodyKey,
  })
  browser = await launchChromium()
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await server?.close()
  await Promise.all([relay?.close(), chain?.stop(), api?.close()])
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

it('logs in with Farcaster, approves a signer and signs a message hash with it', async () => {
  const farcaster = privateKeyToAccount(generatePrivateKey())
  const fid = await chain.register(farcaster.address)
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(`${demoUrl}/?appId=${APP_ID}&apiUrl=${encodeURIComponent(server.url)}`)

  // Sign In With Farcaster: the QR code's link carries the relay channel; the Farcaster app signs it.
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  const dialog = page.getByRole('dialog')
  await dialog.locator('[data-method="farcaster"]').click()
  const open = dialog.getByRole('link', { name: 'Open in app' })
  await open.waitFor({ timeout: 30_000 })
  const channelToken = new URL((await open.getAttribute('href')) ?? '').searchParams.get(
    'channelToken',
  )
  await signInWithFarcasterApp({
    relayUrl: relay.url,
    channelToken: channelToken ?? '',
    account: farcaster,
    fid,
  })
  await dialog.waitFor({ state: 'detached', timeout: 60_000 })
  await expect.poll(() => page.getByTestId('farcaster-signer-key').textContent()).toBe('none')

  // 'Add a signer to Farcaster': the approval link, then the user approves in their Farcaster app.
  await page.getByRole('button', { name: 'Add Farcaster signer' }).click()
  await dialog
    .getByRole('heading', { name: 'Add a signer to Farcaster' })
    .waitFor({ timeout: 30_000 })
  const link = (await dialog.getByTestId('lk-farcaster-signer-url').textContent())?.trim() ?? ''
  const request = api.requests.at(-1)
  expect(request?.deeplinkUrl).toBe(link)
  expect(request?.requestFid).toBe(APP_FID)
  api.approve(request?.token ?? '', fid)
  await dialog.getByRole('heading', { name: 'Success!' }).waitFor({ timeout: 10_000 })
  await dialog.waitFor({ state: 'detached', timeout: 10_000 })
  const publicKey = request?.key ?? ''
  await expect.poll(() => page.getByTestId('farcaster-signer-key').textContent()).toBe(publicKey)

  // The enclave signs; the signature verifies with the approved public key.
  await page.getByRole('button', { name: 'Sign message hash' }).click()
  const signature = (await page.getByTestId('farcaster-signature').textContent()) ?? ''
  const hash = (await page.getByTestId('farcaster-signed-hash').textContent()) ?? ''
  const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.replace(/^0x/, ''), 'hex'))
  expect(ed25519.verify(bytes(signature), bytes(hash), bytes(publicKey))).toBe(true)
  await context.close()
}, 180_000)
