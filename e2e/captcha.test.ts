import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, readCode, typeCode, uniqueEmail } from './browser.ts'

// Captcha on the email flow (docs/captcha.md, security bar 49): the demo app
// opened on an app with captcha enabled and no Turnstile keys runs ALTCHA,
// solved for real by the SDK's own solver (WebCrypto) in Chromium; the server refuses a send-code
// call that carries no token.
const { serverUrl, demoUrl, captchaAppId } = inject('e2e')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

async function openDemo(page: Page) {
  await page.goto(`${demoUrl}/?appId=${captchaAppId}`)
  await page.getByRole('button', { name: 'Log in' }).waitFor()
}

describe('captcha on the email login (ALTCHA)', () => {
  it('logs in by email with the ALTCHA challenge solved in the browser', async () => {
    const page = await browser.newPage()
    const challenges: string[] = []
    const sends: Array<Record<string, unknown>> = []
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/captcha/altcha/challenge')) challenges.push(request.url())
      if (request.url().endsWith('/api/v1/passwordless/init'))
        sends.push(JSON.parse(request.postData() ?? '{}'))
    })
    const email = uniqueEmail('captcha')
    await openDemo(page)
    await page.getByRole('button', { name: 'Log in' }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('heading', { name: 'Log in or sign up' }).waitFor()
    const sentAfter = Math.floor(Date.now() / 1000) - 1
    await dialog.getByRole('textbox', { name: /email/i }).fill(email)
    await dialog.getByRole('button', { name: 'Submit' }).click()
    await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor({ timeout: 30_000 })

    // The solver fetched the app's challenge (plain GET, app id in the query) and
    // the send-code call carried a solved ALTCHA payload.
    expect(challenges.length).toBeGreaterThan(0)
    expect(challenges[0]).toContain(`app_id=${captchaAppId}`)
    expect(sends).toHaveLength(1)
    const token = String(sends[0]?.token ?? '')
    const payload = JSON.parse(Buffer.from(token, 'base64').toString('utf8'))
    expect(payload.challenge.parameters.data.app_id).toBe(captchaAppId)
    expect(payload.solution.derivedKey).toMatch(/^[0-9a-f]+$/)

    const code = await readCode(serverUrl, email, sentAfter)
    await typeCode(page, code)
    await dialog
      .getByText(/success/i)
      .first()
      .waitFor()
    await dialog.waitFor({ state: 'detached' })
    await expect(page.getByText(email).first().isVisible()).resolves.toBe(true)

    // The token the browser used is spent: replaying it is refused.
    const replay = await fetch(`${serverUrl}/api/v1/passwordless/init`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'latchkey-app-id': captchaAppId },
      body: JSON.stringify({ email: uniqueEmail('replay'), token }),
    })
    expect(replay.status).toBe(400)
    expect((await replay.json()).code).toBe('CAPTCHA_INVALID')
    await page.close()
  })

  it('a send-code call without a captcha token is refused', async () => {
    const res = await fetch(`${serverUrl}/api/v1/passwordless/init`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'latchkey-app-id': captchaAppId },
      body: JSON.stringify({ email: uniqueEmail('no-token') }),
    })
    expect(res.status).toBe(403)
    expect((await res.json()).code).toBe('CAPTCHA_FAILED')
  })
})
