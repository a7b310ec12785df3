import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, userId } from './browser.ts'
import { waitForModalClosed } from './wallet-helpers.ts'

// Issue 16, item 2 (docs/client.md "Sessions across tabs"): two tabs of the
// demo in one browser. What one does to the session shows in the other
// without a reload.

const { serverUrl, demoUrl } = inject('e2e')

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

const loggedIn = (page: Page) => page.getByRole('heading', { name: "You're logged in" })
const loggedOut = (page: Page) => page.getByRole('heading', { name: 'Log in to the Latchkey demo' })

/** Marks the page's document: the mark is gone after a reload or a navigation. */
const mark = (page: Page) =>
  page.evaluate(() => {
    ;(window as { tabMark?: boolean }).tabMark = true
  })
const stillMarked = (page: Page) =>
  page.evaluate(() => (window as { tabMark?: boolean }).tabMark === true)

describe('one session across the tabs of the demo', () => {
  it('a logout in one tab logs the other out without a reload, and a new login logs it in', async () => {
    const email = uniqueEmail('tabs')
    const context = await browser.newContext()
    const a = await context.newPage()
    await waitForModalClosed(await logInToDemo(a, { serverUrl, demoUrl }, email))
    await loggedIn(a).waitFor()
    const id = await userId(a)

    const b = await context.newPage()
    await b.goto(demoUrl)
    await loggedIn(b).waitFor({ timeout: 30_000 })
    expect(await userId(b)).toBe(id)
    await mark(b)

    await a.getByRole('button', { name: 'Log out' }).click()
    await loggedOut(a).waitFor()
    await loggedOut(b).waitFor({ timeout: 30_000 })

    // Logged in again in A (a fresh page load there): B follows, still without a reload.
    await waitForModalClosed(await logInToDemo(a, { serverUrl, demoUrl }, email))
    await loggedIn(a).waitFor()
    await loggedIn(b).waitFor({ timeout: 30_000 })
    expect(await userId(b)).toBe(id)
    // B works with the new session: its wallets are the user's.
    await b.getByTestId('wallet-ethereum-0').waitFor()
    expect(await stillMarked(b)).toBe(true)
    await context.close()
  })
})
