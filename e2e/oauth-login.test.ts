import { routes } from '@latchkey/protocol'
import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import {
  holdRequests,
  launchChromium,
  logInToDemo,
  rewriteAuthorization,
  uniqueEmail,
  userId,
} from './browser.ts'

// OAuth login in the demo against the real server, with Google played by a
// real OpenID Provider on 127.0.0.1: the full-page redirect there and back,
// the modal's status screens, a denial, a tampered state, and linking.

const { serverUrl, demoUrl, oidcIssuer, oidcAccounts } = inject('e2e')
const authorizationUrl = `${oidcIssuer}/auth`
const account = (sub: string) => {
  const found = oidcAccounts.find((a) => a.sub === sub)
  if (!found) throw new Error(`no OIDC account ${sub}`)
  return found
}

let browser: Browser
beforeAll(async () => {
  browser = await launchChromium()
})
afterAll(async () => {
  await browser?.close()
})

async function openLanding() {
  const context = await browser.newContext()
  const page = await context.newPage()
  await page.goto(demoUrl)
  await page.getByRole('button', { name: 'Log in', exact: true }).click()
  return { context, page, dialog: page.getByRole('dialog') }
}

/** The demo's linked-accounts row of `type` (its first cell is the type). */
const linkedRow = (page: Page, type: string) =>
  page
    .getByRole('table', { name: 'Linked accounts' })
    .getByRole('row')
    .filter({ has: page.getByRole('cell', { name: type, exact: true }) })

/** Clicks a button that leaves for the provider; resolves once the provider sent the page back. */
async function throughProvider(page: Page, button: Locator) {
  await Promise.all([
    page.waitForURL(
      (url) => url.origin === new URL(demoUrl).origin && url.searchParams.has('state'),
      { waitUntil: 'commit', timeout: 30_000 },
    ),
    button.click(),
  ])
}

describe('OAuth login with Google (local OpenID Provider)', () => {
  it('logs in: provider, verifying, connected, logged in with a google account', async () => {
    const { context, page, dialog } = await openLanding()
    // The server's answer is held until the verifying status has been seen.
    const hold = await holdRequests(page, `${serverUrl}${routes.oauthAuthenticate}`)
    await throughProvider(page, dialog.getByRole('button', { name: 'Continue with Google' }))

    await dialog.getByRole('heading', { name: 'Verifying connection to Google' }).waitFor()
    await expect.poll(() => hold.held.length).toBe(1)
    hold.release()
    await dialog.getByRole('heading', { name: 'Successfully connected with Google' }).waitFor()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()

    const url = new URL(page.url())
    expect(url.searchParams.has('code')).toBe(false)
    expect(url.searchParams.has('state')).toBe(false)
    await expect
      .poll(() => linkedRow(page, 'google').textContent())
      .toContain(account('google-login').email)
    await context.close()
  })

  it("a user who denies at the provider sees 'User denied confirmation during OAuth flow' and Retry", async () => {
    const { context, page, dialog } = await openLanding()
    const rewritten = await rewriteAuthorization(page, authorizationUrl, {
      login_hint: '__deny__',
    })
    await throughProvider(page, dialog.getByRole('button', { name: 'Continue with Google' }))

    await dialog
      .getByRole('heading', { name: 'Authentication failed' })
      .waitFor({ timeout: 30_000 })
    await dialog.getByText('User denied confirmation during OAuth flow').waitFor()
    expect(await dialog.getByRole('button', { name: 'Retry' }).isEnabled()).toBe(true)
    expect(rewritten).toHaveLength(1)
    // Spec 01 §2: error, state (which names the provider) and the rest are removed.
    expect(new URL(page.url()).search).toBe('')
    await context.close()
  })

  it('a return whose state is not the one this tab sent is refused as phishing', async () => {
    const { context, page, dialog } = await openLanding()
    const exchanges: string[] = []
    page.on('request', (request) => {
      if (request.url().startsWith(`${serverUrl}${routes.oauthAuthenticate}`))
        exchanges.push(request.url())
    })
    // The provider is asked with another state (of our shape: it names the
    // provider), and so answers with it.
    const rewritten = await rewriteAuthorization(page, authorizationUrl, {
      state: `google.${'A'.repeat(43)}`,
    })
    await throughProvider(page, dialog.getByRole('button', { name: 'Continue with Google' }))

    await dialog
      .getByRole('heading', { name: 'Authentication failed' })
      .waitFor({ timeout: 30_000 })
    await dialog.getByText('Unexpected auth flow. This may be a phishing attempt.').waitFor()
    expect(await dialog.getByRole('button', { name: 'Retry' }).count()).toBe(0)
    expect(rewritten).toHaveLength(1)

    // Nothing was exchanged and nobody is logged in.
    expect(exchanges).toEqual([])
    await page.keyboard.press('Escape')
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor()
    expect(await page.getByTestId('user-id').count()).toBe(0)
    await context.close()
  })

  it('an email user links a Google account, keeps its id, then unlinks it', async () => {
    const email = uniqueEmail('link-google')
    const linked = account('google-link')
    const context = await browser.newContext()
    const page = await context.newPage()
    const dialog = await logInToDemo(page, { serverUrl, demoUrl }, email)
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    const id = await userId(page)

    await rewriteAuthorization(page, authorizationUrl, { login_hint: linked.sub })
    await throughProvider(page, page.getByRole('button', { name: 'Link Google' }))
    await dialog.getByRole('heading', { name: 'Successfully connected with Google' }).waitFor({
      timeout: 30_000,
    })
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })

    await expect.poll(() => linkedRow(page, 'email').textContent()).toContain(email)
    await expect.poll(() => linkedRow(page, 'google').textContent()).toContain(linked.email)
    expect(await userId(page)).toBe(id)

    await page.getByRole('button', { name: /^Unlink google/ }).click()
    await linkedRow(page, 'google').waitFor({ state: 'detached' })
    await expect.poll(() => linkedRow(page, 'email').count()).toBe(1)
    expect(await userId(page)).toBe(id)
    await context.close()
  })

  it("linking a Google account that is another user's only login: transfer offered, 'No thanks' keeps both, then transfer", async () => {
    const taken = account('google-taken')
    // Its owner: a user who signed up with that Google account.
    {
      const { context, page, dialog } = await openLanding()
      await rewriteAuthorization(page, authorizationUrl, { login_hint: taken.sub })
      await throughProvider(page, dialog.getByRole('button', { name: 'Continue with Google' }))
      await dialog.waitFor({ state: 'detached', timeout: 30_000 })
      await page.getByRole('heading', { name: "You're logged in" }).waitFor()
      await context.close()
    }

    const context = await browser.newContext()
    const page = await context.newPage()
    const dialog = await logInToDemo(page, { serverUrl, demoUrl }, uniqueEmail('link-taken'))
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await page.getByRole('heading', { name: "You're logged in" }).waitFor()
    const id = await userId(page)

    await rewriteAuthorization(page, authorizationUrl, { login_hint: taken.sub })
    await throughProvider(page, page.getByRole('button', { name: 'Link Google' }))
    // Google is the owner's only login method: the server offers a transfer
    // (docs/access-control.md); 'No thanks' leaves both accounts as they were.
    await dialog.getByRole('heading', { name: 'Transfer account?' }).waitFor({ timeout: 30_000 })
    await dialog.getByRole('button', { name: 'No thanks' }).click()
    await dialog.waitFor({ state: 'detached' })
    expect(await userId(page)).toBe(id)
    expect(await linkedRow(page, 'google').count()).toBe(0)

    // Again, and this time transfer: the Google account moves to this user.
    await rewriteAuthorization(page, authorizationUrl, { login_hint: taken.sub })
    await throughProvider(page, page.getByRole('button', { name: 'Link Google' }))
    await dialog.getByRole('heading', { name: 'Transfer account?' }).waitFor({ timeout: 30_000 })
    await dialog.getByRole('button', { name: 'Transfer and delete account' }).click()
    await dialog.getByRole('button', { name: 'Success!' }).waitFor()
    await dialog.waitFor({ state: 'detached' })
    await linkedRow(page, 'google').waitFor()
    expect(await userId(page)).toBe(id)
    await context.close()
  })
})
