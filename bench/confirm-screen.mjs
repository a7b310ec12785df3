// Confirm-screen timings in Chromium, through the demo app's real React
// confirm screen (issue 19): the demo built for production with Vite and
// served from 127.0.0.1, the bench server on 127.0.0.1 (same site), Anvil as
// the chain. Each run is a new user on a new device (a fresh browser
// context): log in through the modal (the demo creates the embedded wallets
// on login), fund the wallet from the Send panel's faucet, then time, from
// Node around Playwright's waits:
//   - request → confirm screen ready: 'Send ETH' clicked → the dialog's
//     'Approve' enabled (the request decoded, prepared, simulated);
//   - confirm → receipt: 'Approve' clicked → 'Transaction complete!' (the
//     enclave signs, the SDK broadcasts and waits for the receipt).

import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { createServer } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, extname, join, normalize, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium } from 'playwright-core'
import { build } from 'vite'
import { ask, startServerProcess } from './server.mjs'
import { startAnvil } from './transactions.mjs'

const here = dirname(fileURLToPath(import.meta.url))
const demoRoot = join(here, '..', 'apps', 'demo')
const APP_ID = 'benchappaaaaaaaaaaaaaaaaa'
// Not the enclave bench's Anvil port (18545): the two never share a chain.
const ANVIL_PORT = 18546
const TIMEOUT_MS = 30_000
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.floor(sorted.length / 2)])
}
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.wasm': 'application/wasm',
}

/** The demo for production, into a temporary directory (removed by the caller). */
async function buildDemo() {
  const outDir = await mkdtemp(join(tmpdir(), 'latchkey-bench-demo-'))
  await build({
    root: demoRoot,
    configFile: join(demoRoot, 'vite.config.ts'),
    // Errors only: the demo's Rollup warnings (annotations, chunk sizes) would bury the table.
    logLevel: 'error',
    build: { outDir, emptyOutDir: true, sourcemap: false },
  })
  return outDir
}

/** Serves `dir` as a single-page app: unknown paths answer index.html. */
function serveStatic(server, dir) {
  server.on('request', async (req, res) => {
    try {
      const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname))
      const file = join(dir, path)
      const inside = file.startsWith(dir + sep) && extname(file) !== ''
      const body = await readFile(inside ? file : join(dir, 'index.html'))
      res.setHeader(
        'content-type',
        TYPES[inside ? extname(file) : '.html'] ?? 'application/octet-stream',
      )
      res.end(body)
    } catch {
      res.statusCode = 404
      res.end()
    }
  })
}

/** Polls `locator.isEnabled()` every 5 ms (a bench may time wall clock; a test would not). */
async function enabled(locator, timeout = TIMEOUT_MS) {
  const until = performance.now() + timeout
  while (performance.now() < until) {
    if (await locator.isEnabled().catch(() => false)) return
    await new Promise((r) => setTimeout(r, 5))
  }
  throw new Error(`${locator} not enabled after ${timeout} ms`)
}

/** Logs a new user in through the modal; resolves once the Send panel can fund the wallet. */
async function logIn(page, child, email) {
  await page.getByRole('button', { name: 'Log in' }).click()
  const dialog = page.getByRole('dialog')
  await dialog.getByRole('textbox', { name: /email/i }).fill(email)
  await dialog.getByRole('button', { name: 'Submit' }).click()
  const first = dialog.getByRole('textbox', { name: 'Digit 1 of 6' })
  await first.waitFor({ timeout: TIMEOUT_MS })
  let code
  for (let i = 0; i < 100 && !code; i++) {
    code = (await ask(child))[email]
    if (!code) await new Promise((r) => setTimeout(r, 50))
  }
  if (!code) throw new Error(`no code captured for ${email}`)
  await first.click()
  await page.keyboard.type(code)
  // The post-login sequence (embedded wallets created) runs in the modal; it closes after.
  await dialog.waitFor({ state: 'detached', timeout: TIMEOUT_MS })
  await enabled(page.getByRole('button', { name: 'Get 10 test ETH', exact: true }))
}

export async function measureConfirmScreen({ runs = 5 } = {}) {
  const host = createServer()
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve))
  const hostOrigin = `http://127.0.0.1:${host.address().port}`
  let outDir
  let server
  let anvil
  let browser
  const ready = []
  const receipt = []
  try {
    // Side by side; each kept as it arrives, so `finally` stops whatever did start.
    const started = await Promise.allSettled([
      buildDemo().then((dir) => (outDir = dir)),
      startServerProcess({ origins: [hostOrigin] }).then((s) => (server = s)),
      startAnvil(ANVIL_PORT).then((a) => (anvil = a)),
      chromium
        .launch({
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
        })
        .then((b) => (browser = b)),
    ])
    const failed = started.find((s) => s.status === 'rejected')
    if (failed) throw failed.reason
    serveStatic(host, outDir)
    const query = new URLSearchParams({ appId: APP_ID, apiUrl: server.url, rpcUrl: anvil.url })
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext()
      try {
        const page = await context.newPage()
        await page.goto(`${hostOrigin}/?${query}`)
        await logIn(page, server.child, `confirm${i}-${Date.now()}@bench.example`)
        await page.getByRole('button', { name: 'Get 10 test ETH', exact: true }).click()
        await page
          .getByTestId('send-result')
          .filter({ hasText: 'Funded:' })
          .waitFor({ timeout: TIMEOUT_MS })
        await enabled(page.getByRole('button', { name: 'Send ETH', exact: true }))

        const dialog = page.getByRole('dialog')
        const approve = dialog.getByRole('button', { name: 'Approve', exact: true })
        const requested = performance.now()
        await page.getByRole('button', { name: 'Send ETH', exact: true }).click()
        await enabled(approve)
        const confirmReady = performance.now()
        await approve.click()
        await dialog
          .getByRole('heading', { name: 'Transaction complete!' })
          .waitFor({ timeout: TIMEOUT_MS })
        const completed = performance.now()
        ready.push(confirmReady - requested)
        receipt.push(completed - confirmReady)

        // The hash the app got back is on the chain (a sanity check, not timed).
        await dialog.getByRole('button', { name: 'All Done' }).click()
        const sent = page.getByTestId('send-result').filter({ hasText: 'ETH sent:' })
        await sent.waitFor({ timeout: TIMEOUT_MS })
        const hash = ((await sent.locator('code').textContent()) ?? '').trim()
        const answer = await fetch(anvil.url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'eth_getTransactionReceipt',
            params: [hash],
          }),
        }).then((r) => r.json())
        if (answer.result?.status !== '0x1') throw new Error(`no successful receipt for ${hash}`)
      } finally {
        await context.close()
      }
    }
  } finally {
    await browser?.close()
    anvil?.stop()
    server?.child.send({ type: 'stop' })
    host.close()
    host.closeAllConnections()
    if (outDir) await rm(outDir, { recursive: true, force: true })
  }
  return { runs, confirmReadyMs: median(ready), confirmToReceiptMs: median(receipt) }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(await measureConfirmScreen())
