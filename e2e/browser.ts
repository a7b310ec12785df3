import { type Browser, chromium, type Page } from 'playwright-core'

/** Debian's Chromium, headless, as the machine provides it (Playwright cannot download browsers here). */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  })
}

/** The newest code the dev mailbox holds for `to`, read through the server's dev mailbox API. */
export async function readCode(serverUrl: string, to: string, notBefore = 0): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const response = await fetch(`${serverUrl}/api/v1/dev/mailbox?to=${encodeURIComponent(to)}`)
    const { messages } = (await response.json()) as {
      messages: Array<{ code: string | null; created_at: number }>
    }
    const latest = messages.find((m) => m.code && m.created_at >= notBefore)
    if (latest?.code) return latest.code
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no code arrived for ${to}`)
}

/** The newest code the dev SMS outbox holds for `to` (E.164). */
export async function readSmsCode(serverUrl: string, to: string, notBefore = 0): Promise<string> {
  for (let i = 0; i < 50; i++) {
    const response = await fetch(`${serverUrl}/api/v1/dev/outbox?to=${encodeURIComponent(to)}`)
    const { messages } = (await response.json()) as {
      messages: Array<{ code: string | null; created_at: number }>
    }
    const latest = messages.find((m) => m.code && m.created_at >= notBefore)
    if (latest?.code) return latest.code
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`no SMS code arrived for ${to}`)
}

/** Types a code into the six code boxes, starting at the first. */
export async function typeCode(page: Page, code: string) {
  await page.getByRole('textbox', { name: 'Digit 1 of 6' }).click()
  await page.keyboard.type(code)
}

export const uniqueEmail = (tag: string) =>
  `${tag}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 7)}@example.com`

/**
 * Opens the demo, logs in with an email code read from the dev mailbox, and
 * returns the dialog (still open: the post-login sequence may be running).
 */
export async function logInToDemo(
  page: Page,
  urls: { serverUrl: string; demoUrl: string },
  email: string,
) {
  await page.goto(urls.demoUrl)
  await page.getByRole('button', { name: 'Log in' }).click()
  const dialog = page.getByRole('dialog')
  const sentAfter = Math.floor(Date.now() / 1000) - 1
  await dialog.getByRole('textbox', { name: /email/i }).fill(email)
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor()
  await typeCode(page, await readCode(urls.serverUrl, email, sentAfter))
  return dialog
}

/** The signed-in user's id, as the demo shows it. */
export async function userId(page: Page): Promise<string> {
  return (await page.getByTestId('user-id').textContent())?.trim() ?? ''
}

/**
 * Rewrites the query of the page's requests to an OAuth authorization
 * endpoint, as a test's stand-in for what a user does at the provider: pick
 * an account (`login_hint`), deny (`login_hint: '__deny__'`), or an attacker
 * swapping `state`. The browser is redirected to the rewritten URL, so the
 * provider sees exactly that request. Returns the URLs the page asked for.
 */
export async function rewriteAuthorization(
  page: Page,
  authorizationUrl: string,
  params: Record<string, string>,
): Promise<string[]> {
  const endpoint = new URL(authorizationUrl)
  const requested: string[] = []
  await page.route(
    (url) => url.origin === endpoint.origin && url.pathname === endpoint.pathname,
    async (route) => {
      const url = new URL(route.request().url())
      if (Object.entries(params).every(([k, v]) => url.searchParams.get(k) === v))
        return route.continue()
      requested.push(url.href)
      for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v)
      await route.fulfill({ status: 302, headers: { location: url.href } })
    },
  )
  return requested
}

/**
 * Holds the page's requests to `url` until `release()`: lets a test see a
 * state (a spinner while the server answers) that is otherwise over before it
 * can be looked at. `held` lists the requests that were held.
 */
export async function holdRequests(
  page: Page,
  url: string,
): Promise<{ release(): void; held: string[] }> {
  let release = () => {}
  const released = new Promise<void>((resolve) => {
    release = resolve
  })
  const held: string[] = []
  await page.route(url, async (route) => {
    held.push(route.request().url())
    await released
    await route.continue()
  })
  return { release, held }
}

/** The address the demo shows for an embedded wallet (`wallet-ethereum-0`, `wallet-solana-0`, …). */
export async function walletAddress(page: Page, testId = 'wallet-ethereum-0'): Promise<string> {
  return ((await page.getByTestId(testId).locator('code').textContent()) ?? '').trim()
}

/**
 * Clicks a demo signing button and returns the value shown under `label`.
 * The Ethereum buttons ask on the modal's "Sign message" screen first, which
 * closes 1.4 s after success; Solana message signing does not ask.
 */
export async function signInDemo(
  page: Page,
  button = 'Sign message',
  label = 'Ethereum signature',
): Promise<string> {
  await page.getByRole('button', { name: button, exact: true }).click()
  if (button !== 'Solana sign message') {
    const dialog = page.getByRole('dialog')
    await dialog.getByRole('button', { name: 'Sign and continue' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
  }
  const result = page
    .getByTestId('wallet-result')
    .filter({ hasText: `${label}:` })
    .locator('code')
  await result.waitFor({ timeout: 30_000 })
  return ((await result.textContent()) ?? '').trim()
}
