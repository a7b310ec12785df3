import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { SignClient } from '@walletconnect/sign-client'
import type { Browser, Page } from 'playwright-core'
import { type Hex, verifyMessage } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { build, defaultClientConditions } from 'vite'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  memoryWalletConnectStorage,
  startWalletConnectRelay,
  type WalletConnectRelay,
} from '../packages/core/src/test/walletconnect-relay.ts'
import { launchChromium } from './browser.ts'

// Our WalletConnect provider as Vite bundles it for a browser, running in
// Chromium, pairs with @walletconnect/sign-client (the wallet app, in Node)
// on a local relay: the bundle needs no Node polyfills, keeps its session in
// localStorage across a reload, and the page contacts nothing but 127.0.0.1.

const root = fileURLToPath(new URL('..', import.meta.url))
const account = privateKeyToAccount(generatePrivateKey())

const provider = JSON.stringify(`${root}packages/core/src/external/walletconnect.ts`)
const ENTRY = `
import { createWalletConnectProvider } from ${provider}
window.startWalletConnect = async (relayUrl) => {
  window.wc = await createWalletConnectProvider({
    projectId: 'latchkey-e2e',
    chains: [{ id: 1, name: 'Ethereum', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: ['http://127.0.0.1:9'] } } }],
    defaultChain: { id: 1, name: 'Ethereum', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: ['http://127.0.0.1:9'] } } },
    appName: 'Latchkey e2e', appLogoUrl: null, url: location.origin, relayUrl,
    onDisplayUri: (uri) => { window.pairingUri = uri },
  })
}
`

declare global {
  interface Window {
    startWalletConnect(relayUrl: string): Promise<void>
    wc: { provider: { request(args: { method: string; params?: unknown }): Promise<unknown> } }
    pairingUri?: string
  }
}

let dir: string
let site: Server
let siteUrl: string
let relay: WalletConnectRelay
let browser: Browser
let wallet: Awaited<ReturnType<typeof SignClient.init>>

/** Builds the entry for browsers, as an app's Vite build would (no Node polyfills). */
async function buildPage() {
  dir = await mkdtemp(join(tmpdir(), 'latchkey-wc-'))
  await writeFile(join(dir, 'main.js'), ENTRY)
  await writeFile(
    join(dir, 'index.html'),
    '<!doctype html><script type="module" src="./main.js"></script>',
  )
  await build({
    root: dir,
    configFile: false,
    logLevel: 'warn',
    resolve: { conditions: ['latchkey-source', ...defaultClientConditions] },
    build: { outDir: join(dir, 'dist'), emptyOutDir: true },
  })
  const types: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript' }
  site = createServer(async (request, response) => {
    const path = new URL(request.url ?? '/', 'http://x').pathname
    const file = join(dir, 'dist', path === '/' ? 'index.html' : path)
    const body = await readFile(file).catch(() => null)
    response.writeHead(body ? 200 : 404, { 'content-type': types[extname(file)] ?? 'text/plain' })
    response.end(body)
  })
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve))
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`
}

/** The page, with every request outside 127.0.0.1 refused and recorded, and page errors kept. */
async function openPage(outside: string[], errors: string[]): Promise<Page> {
  const page = await browser.newPage()
  page.on('pageerror', (error) => errors.push(error.message))
  await page.route('**/*', (route) => {
    const url = new URL(route.request().url())
    if (url.hostname === '127.0.0.1') return route.continue()
    outside.push(url.origin)
    return route.abort()
  })
  await page.goto(siteUrl)
  await page.waitForFunction(() => typeof window.startWalletConnect === 'function')
  return page
}

beforeAll(async () => {
  relay = await startWalletConnectRelay()
  await buildPage()
  browser = await launchChromium()
  wallet = await SignClient.init({
    projectId: 'latchkey-e2e',
    relayUrl: relay.url,
    storage: memoryWalletConnectStorage(),
    telemetryEnabled: false,
    metadata: { name: 'Rainbow', description: 'Wallet', url: 'https://rainbow.me', icons: [] },
  })
  wallet.on('session_proposal', async ({ id, params }) => {
    await wallet.approve({
      id,
      namespaces: {
        eip155: {
          chains: ['eip155:1'],
          accounts: [`eip155:1:${account.address}`],
          methods: params.optionalNamespaces.eip155?.methods ?? [],
          events: params.optionalNamespaces.eip155?.events ?? [],
        },
      },
    })
  })
  wallet.on('session_request', async ({ id, topic, params }) => {
    const [message] = params.request.params as [Hex]
    const result = await account.signMessage({ message: { raw: message } })
    await wallet.respond({ topic, response: { id, jsonrpc: '2.0', result } })
  })
})

afterAll(async () => {
  wallet?.core.heartbeat.stop()
  await wallet?.core.relayer.transportClose()
  await browser?.close()
  await relay?.close()
  await new Promise((resolve) => site?.close(resolve))
  if (dir) await rm(dir, { recursive: true, force: true })
})

describe('WalletConnect in Chromium, on a local relay', () => {
  it('pairs through the wc: URI, signs, and reconnects silently after a reload', async () => {
    const outside: string[] = []
    const errors: string[] = []
    const page = await openPage(outside, errors)
    await page.evaluate((url) => window.startWalletConnect(url), relay.url)
    const accounts = page.evaluate(() =>
      window.wc.provider.request({ method: 'eth_requestAccounts' }),
    )
    const uri = await (await page.waitForFunction(() => window.pairingUri)).jsonValue()
    await wallet.pair({ uri: uri as string })
    expect(await accounts).toEqual([account.address])

    const signature = await page.evaluate(
      (address) =>
        window.wc.provider.request({ method: 'personal_sign', params: ['0x6869', address] }),
      account.address,
    )
    expect(
      await verifyMessage({ address: account.address, message: 'hi', signature: signature as Hex }),
    ).toBe(true)

    // The session is in localStorage: a reload reconnects without a pairing URI.
    await page.reload()
    await page.waitForFunction(() => typeof window.startWalletConnect === 'function')
    await page.evaluate((url) => window.startWalletConnect(url), relay.url)
    expect(
      await page.evaluate(() => window.wc.provider.request({ method: 'eth_accounts' })),
    ).toEqual([account.address])
    expect(await page.evaluate(() => window.pairingUri)).toBeUndefined()

    expect(errors).toEqual([])
    // The sign client's Verify API iframe is the one outside request (refused here).
    expect(outside.filter((origin) => origin !== 'https://verify.walletconnect.org')).toEqual([])
    await page.close()
  })
})
