import { describe, expect, inject, it } from 'vitest'
import { userId } from './browser.ts'
import { emailLogin, openApp, unique, useBrowser } from './gates-helpers.ts'

// Allowlist and terms consent in the demo (spec 02 "Allowlist and limit
// screens", "Terms consent"); account transfer and the user limit are in
// account-transfer.test.ts.

const { demoUrl, gatesAppId } = inject('e2e')
const browser = useBrowser()

describe('allowlist (spec 02 "Allowlist and limit screens")', () => {
  it('refuses an address not on the list, creates no user, and lets an invited one in', async () => {
    const { context, page } = await openApp(browser(), gatesAppId)
    const outsider = `someone-${unique()}@elsewhere.example`
    for (let attempt = 0; attempt < 2; attempt++) {
      const dialog = await emailLogin(page, outsider)
      await dialog.getByRole('heading', { name: "You don't have access to this app" }).waitFor()
      await dialog.getByText('Have you been invited?').waitFor()
      // No session, and (the second time round) no user was made by the first try.
      expect(await page.evaluate(() => localStorage.getItem('latchkey:refresh_token'))).toBeNull()
      await dialog.getByRole('button', { name: 'Try another account' }).click()
      await dialog.getByRole('heading', { name: 'Log in or sign up' }).waitFor()
      await page.keyboard.press('Escape')
      await dialog.waitFor({ state: 'detached' })
    }

    // An address on the allowlist's domain gets in (and meets the terms: accepted here).
    const invited = `friend-${unique()}@invited.example`
    const dialog = await emailLogin(page, invited)
    await dialog.getByRole('heading', { name: 'One last step' }).waitFor()
    await dialog.getByRole('button', { name: 'Accept' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await expect.poll(() => page.getByTestId('user-email').textContent()).toBe(invited)
    await context.close()
  })
})

describe('terms consent (spec 02 "Terms consent")', () => {
  it("'No thanks' logs the new user out; the next login asks again", async () => {
    const { context, page } = await openApp(browser(), gatesAppId)
    const email = `decline-${unique()}@invited.example`
    let dialog = await emailLogin(page, email)
    await dialog.getByRole('heading', { name: 'One last step' }).waitFor()
    await dialog.getByRole('button', { name: 'No thanks' }).click()
    await dialog.waitFor({ state: 'detached' })
    await page.getByRole('button', { name: 'Log in', exact: true }).waitFor()
    expect(await page.getByTestId('user-id').count()).toBe(0)
    expect(await page.evaluate(() => localStorage.getItem('latchkey:refresh_token'))).toBeNull()

    dialog = await emailLogin(page, email)
    await dialog.getByRole('heading', { name: 'One last step' }).waitFor()
    await context.close()
  })

  it('Accept stores the acceptance on the user; later logins are not asked', async () => {
    const { context, page } = await openApp(browser(), gatesAppId)
    const email = 'guest.list@example.com'
    const dialog = await emailLogin(page, email)
    await dialog.getByRole('heading', { name: 'One last step' }).waitFor()
    // The links open the app's pages in a new tab.
    const terms = dialog.getByRole('link', { name: 'View Terms' })
    expect(await terms.getAttribute('href')).toBe(`${demoUrl}/terms.html`)
    expect(await terms.getAttribute('target')).toBe('_blank')
    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      dialog.getByRole('link', { name: 'View Privacy Policy' }).click(),
    ])
    await tab.waitForLoadState()
    expect(tab.url()).toBe(`${demoUrl}/privacy.html`)
    await tab.close()

    await dialog.getByRole('button', { name: 'Accept' }).click()
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    await expect.poll(() => page.getByTestId('user-terms').textContent()).toBe('Accepted')
    const id = await userId(page)

    // Reload: still logged in, still accepted (the server has it), no terms screen.
    await page.reload()
    await expect.poll(() => page.getByTestId('user-terms').textContent()).toBe('Accepted')
    expect(await page.getByRole('dialog').count()).toBe(0)

    // Log out and in again: straight through.
    await page.getByRole('button', { name: 'Log out' }).click()
    const again = await emailLogin(page, email)
    await again.waitFor({ state: 'detached', timeout: 30_000 })
    expect(await userId(page)).toBe(id)
    await context.close()
  })
})
