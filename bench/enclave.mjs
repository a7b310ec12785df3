// Enclave timings in Chromium: ready time after the host page loads, create
// wallet (Ethereum + Solana, shares stored), and personal_sign — medians of
// repeated runs, each in a fresh browser context (a new device). Then the
// user enrolls an authenticator app (TOTP, codes from otplib as the app
// would show them) and the MFA timings follow: the first signature in the
// MFA window (auth share fetched: cold), the next ones (warm key, docs/mfa.md
// "Warm keys"), and a TOTP verification.
import { createServer } from 'node:http'
import { generate } from 'otplib'
import { chromium } from 'playwright-core'
import { ask, startServerProcess } from './server.mjs'
import { measureTransactionsInPage, startAnvil } from './transactions.mjs'

const TOTP_PERIOD_S = 30
const WARM_SIGNATURES = 5
/**
 * The authenticator app's code, `steps` steps ahead. A code works once per
 * 30 s step and only for a step later than the last one used, so each run is
 * a new user: setup takes the current step's code, the verification the
 * next step's (the server accepts one step of drift either way).
 */
const totpCode = (secret, steps = 0) =>
  generate({ secret, epoch: Math.floor(Date.now() / 1000) + steps * TOTP_PERIOD_S })

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
  if (event.data?.event === 'latchkey:iframe:ready') {
    window.latchkeyKey = event.data.data?.key_thumbprint
    return ready(performance.now())
  }
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

/**
 * Logs in as the SDK does: the login binds the session to the enclave's
 * device key (its thumbprint, from the ready message), without which the key
 * routes refuse the enclave (docs/security.md "Key routes answer only to the enclave").
 */
async function login(url, child, email, keyThumbprint) {
  const post = (path, body, extra = {}) =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { ...headers, ...extra },
      body: JSON.stringify(body),
    }).then((r) => r.json())
  await post('/api/v1/passwordless/init', { email })
  const { [email]: code } = await ask(child)
  const auth = await post(
    '/api/v1/passwordless/authenticate',
    { email, code },
    { 'latchkey-enclave-key': keyThumbprint },
  )
  return auth.token
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
  const cold = []
  const warm = []
  const verify = []
  let transactions = { ethereum: [], solana: [] }
  const anvil = await startAnvil()
  try {
    for (let i = 0; i < runs; i++) {
      const context = await browser.newContext()
      const page = await context.newPage()
      await page.goto(hostOrigin)
      const keyThumbprint = await page.evaluate(() =>
        window.latchkeyReady.then(() => window.latchkeyKey),
      )
      const token = await login(
        url,
        child,
        `enclave${i}-${Date.now()}@bench.example`,
        keyThumbprint,
      )
      const timings = await page.evaluate(async (accessToken) => {
        const loaded = performance.timing.loadEventEnd - performance.timing.navigationStart
        const readyAt = await window.latchkeyReady
        const t = performance.now()
        const { user } = await window.enclaveRequest('latchkey:wallets:create', {
          access_token: accessToken,
          chain_types: ['ethereum', 'solana'],
          recovery: { method: 'latchkey' },
        })
        const created = performance.now() - t
        const wallet = user.linked_accounts.find(
          (a) => a.type === 'wallet' && a.chain_type === 'ethereum',
        )
        window.benchSign = async () => {
          const start = performance.now()
          await window.enclaveRequest('latchkey:wallets:rpc', {
            access_token: accessToken,
            entropy_id: wallet.entropy_id,
            chain_type: 'ethereum',
            wallet_index: 0,
            request: { method: 'personal_sign', params: ['0x68656c6c6f', wallet.address] },
          })
          return performance.now() - start
        }
        const signed = await window.benchSign()
        const { secret } = await window.enclaveRequest('latchkey:mfa:init-enrollment', {
          access_token: accessToken,
          request: { method: 'totp' },
        })
        return { ready: readyAt, created, signed, loaded, secret }
      }, token)
      ready.push(timings.ready)
      create.push(timings.created)
      sign.push(timings.signed)

      // Enrolled: this session's MFA window is open. The first signature fetches
      // the auth share (and keeps the key), the next ones sign from memory.
      const mfa = await page.evaluate(
        async ({ accessToken, code, warmSignatures }) => {
          await window.enclaveRequest('latchkey:mfa:submit-enrollment', {
            access_token: accessToken,
            request: { method: 'totp', code },
          })
          const cold = await window.benchSign()
          const warm = []
          for (let i = 0; i < warmSignatures; i++) warm.push(await window.benchSign())
          return { cold, warm }
        },
        {
          accessToken: token,
          code: await totpCode(timings.secret),
          warmSignatures: WARM_SIGNATURES,
        },
      )
      cold.push(mfa.cold)
      warm.push(...mfa.warm)
      const verified = await page.evaluate(
        async ({ accessToken, code }) => {
          const start = performance.now()
          await window.enclaveRequest('latchkey:mfa:verify', {
            access_token: accessToken,
            request: { method: 'totp', code },
          })
          return performance.now() - start
        },
        { accessToken: token, code: await totpCode(timings.secret, 1) },
      )
      verify.push(verified)
      await context.close()
    }
    // Transactions: a new user (no MFA) on a new device, Anvil as the chain.
    const context = await browser.newContext()
    const page = await context.newPage()
    await page.goto(hostOrigin)
    const keyThumbprint = await page.evaluate(() =>
      window.latchkeyReady.then(() => window.latchkeyKey),
    )
    const accessToken = await login(url, child, `tx-${Date.now()}@bench.example`, keyThumbprint)
    transactions = await measureTransactionsInPage(page, { accessToken, anvilUrl: anvil.url })
    await context.close()
  } finally {
    anvil.stop()
    await browser.close()
    child.send({ type: 'stop' })
    host.close()
  }
  return {
    runs,
    readyMs: median(ready),
    createMs: median(create),
    signMs: median(sign),
    signColdMs: median(cold),
    signWarmMs: median(warm),
    warmSignatures: warm.length,
    verifyTotpMs: median(verify),
    ethereumSendMs: median(transactions.ethereum),
    solanaSignMs: median(transactions.solana),
    transactionRuns: transactions.ethereum.length,
  }
}

if (process.argv[1]?.endsWith('enclave.mjs')) console.log(await measureEnclave())
