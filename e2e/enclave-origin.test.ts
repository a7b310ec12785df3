import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium } from './browser.ts'

const { serverUrl, demoUrl, appId } = inject('e2e')
const enclaveUrl = `${serverUrl}/apps/${appId}/embedded-wallets`

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

describe('the enclave and foreign origins (security bar 43, 46)', () => {
  it('answers nothing to a look-alike origin that opens it and sends it requests', async () => {
    const page = await browser.newPage()
    // Same server, another origin: `localhost` is not the allowed `127.0.0.1`.
    await page.goto(demoUrl.replace('127.0.0.1', 'localhost'))
    const received = await page.evaluate(async (url) => {
      const seen: unknown[] = []
      addEventListener('message', (event) => seen.push({ origin: event.origin, data: event.data }))
      const enclave = window.open(url)
      if (!enclave) return ['popup blocked']
      await new Promise((r) => setTimeout(r, 1_500))
      for (const event of ['latchkey:wallets:connect', 'latchkey:clear'])
        enclave.postMessage(
          {
            id: 'probe',
            event,
            data: { access_token: 'x', entropy_id: '0x0000000000000000000000000000000000000001' },
          },
          new URL(url).origin,
        )
      await new Promise((r) => setTimeout(r, 1_500))
      enclave.close()
      return seen
    }, enclaveUrl)
    expect(received).toEqual([])
    await page.close()
  })

  it('cannot be framed by an origin the app does not allow', async () => {
    const page = await browser.newPage()
    const blocked: string[] = []
    page.on('console', (message) => {
      if (/frame-ancestors/.test(message.text())) blocked.push(message.text())
    })
    await page.goto(demoUrl.replace('127.0.0.1', 'localhost'))
    await page.evaluate((url) => {
      const frame = document.createElement('iframe')
      frame.src = url
      document.body.appendChild(frame)
    }, enclaveUrl)
    await expect.poll(() => blocked.length, { timeout: 5_000 }).toBeGreaterThan(0)
    await page.close()
  })
})
