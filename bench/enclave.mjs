// Enclave timings in Chromium: ready time after the host page loads, create
// wallet (Ethereum + Solana, shares stored), and personal_sign — medians of
// repeated runs, each in a fresh browser context (a new device).
import { createServer } from 'node:http'
import { chromium } from 'playwright-core'
import { ask, startServerProcess } from './server.mjs'

const APP_ID = 'benchappaaaaaaaaaaaaaaaaa'
const headers = { 'content-type': 'application/json', 'latchkey-app-id': APP_ID }
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round(sorted[Math.floor(sorted.length / 2)])
}

// The host page: frames the enclave and speaks its protocol directly.
const hostPage = (enclaveUrl) => `<!doctype html><html lang="en"><body><script type="module">
const enclaveOrigin = new URL(${JSON.stringify(enclaveUrl)}).origin
const frame = document.createElement('iframe')
const pending = new Map()
let ready
window.latchkeyReady = new Promise((resolve) => { ready = resolve })
window.addEventListener('message', (event) => {
  if (event.origin !== enclaveOrigin || event.source !== frame.contentWindow) return
  if (event.data?.event === 'latchkey:iframe:ready') return ready(performance.now())
  const waiter = pending.get(event.data?.id)
  if (!waiter) return
  pending.delete(event.data.id)
  event.data.event.endsWith(':error') ? waiter.reject(new Error(JSON.stringify(event.data.error))) : waiter.resolve(event.data.data)
})
window.enclaveRequest = (event, data) => new Promise((resolve, reject) => {
  const id = crypto.randomUUID()
  pending.set(id, { resolve, reject })
  frame.contentWindow.postMessage({ id, event, data }, enclaveOrigin)
})
frame.src = ${JSON.stringify(enclaveUrl)}
frame.style.display = 'none'
document.body.appendChild(frame)
</script></body></html>`

async function login(url, child, email) {
  const post = (path, body) =>
    fetch(`${url}${path}`, { method: 'POST', headers, body: JSON.stringify(body) }).then((r) =>
      r.json(),
    )
  await post('/api/v1/passwordless/init', { email })
  const { [email]: code } = await ask(child)
  return (await post('/api/v1/passwordless/authenticate', { email, code })).token
}

export async function measureEnclave({ runs = 5 } = {}) {
  const host = createServer()
  await new Promise((resolve) => host.listen(0, '127.0.0.1', resolve))
  const hostOrigin = `http://127.0.0.1:${host.address().port}`
  const { child, url } = await startServerProcess({ origins: [hostOrigin] })
  host.on('request', (_req, res) => {
    res.setHeader('content-type', 'text/html')
    res.end(hostPage(`${url}/apps/${APP_ID}/embedded-wallets`))
  })
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  })
  const ready = []
  const create = []
  const sign = []
  try {
    for (let i = 0; i < runs; i++) {
      const token = await login(url, child, `enclave${i}-${Date.now()}@bench.example`)
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(hostOrigin)
      const timings = await page.evaluate(async (accessToken) => {
        const loaded = performance.timing.loadEventEnd - performance.timing.navigationStart
        const readyAt = await window.latchkeyReady
        let t = performance.now()
        const { user } = await window.enclaveRequest('latchkey:wallets:create', {
          access_token: accessToken,
          chain_types: ['ethereum', 'solana'],
          recovery: { method: 'latchkey' },
        })
        const created = performance.now() - t
        const wallet = user.linked_accounts.find(
          (a) => a.type === 'wallet' && a.chain_type === 'ethereum',
        )
        t = performance.now()
        await window.enclaveRequest('latchkey:wallets:rpc', {
          access_token: accessToken,
          entropy_id: wallet.entropy_id,
          chain_type: 'ethereum',
          wallet_index: 0,
          request: { method: 'personal_sign', params: ['0x68656c6c6f', wallet.address] },
        })
        return { ready: readyAt, created, signed: performance.now() - t, loaded }
      }, token)
      ready.push(timings.ready)
      create.push(timings.created)
      sign.push(timings.signed)
      await context.close()
    }
  } finally {
    await browser.close()
    child.send({ type: 'stop' })
    host.close()
  }
  return { runs, readyMs: median(ready), createMs: median(create), signMs: median(sign) }
}

if (process.argv[1]?.endsWith('enclave.mjs')) console.log(await measureEnclave())
