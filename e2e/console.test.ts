import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, uniqueEmail, userId } from './browser.ts'
import { latchkeyCli } from './cli.ts'

// Tracker issue 23: the admin console at /console (docs/console.md), end to
// end: an admin token made with the real CLI against the e2e server's
// database, signing in in Chromium, an app created and a setting changed
// (read back with `latchkey apps settings`), and a user who logged in through
// the demo found, their sessions revoked (the demo is logged out on reload),
// and deleted; then the second half: a partial search, one session ended,
// the app's events and the audit log that records the change.
const { serverUrl, demoUrl, appId, dataDir, databaseUrl } = inject('e2e')
const bin = join(import.meta.dirname, '..', 'packages/server/bin/latchkey.mjs')

/** Runs `latchkey …` on the e2e server's database, in this process (e2e/cli.ts); its stdout. */
const latchkey = (...argv: string[]) => latchkeyCli({ dataDir, databaseUrl }, ...argv)

/** The same through the installed command (packages/server/bin/latchkey.mjs), as an operator runs it. */
async function latchkeyBin(...argv: string[]): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env }
  delete env.LATCHKEY_DATA_DIR
  if (databaseUrl) env.DATABASE_URL = databaseUrl
  else delete env.DATABASE_URL
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [bin, ...argv, '--data', dataDir],
    {
      env,
    },
  )
  return stdout
}

let browser: Browser
/** One admin for the file, created with the real `latchkey` command. */
let adminToken: string
beforeAll(async () => {
  browser = await launchChromium()
  adminToken = JSON.parse(await latchkeyBin('admin', 'create', 'e2e-console', '--json')).token
})
afterAll(async () => {
  await browser?.close()
})

async function signIn(page: Page) {
  await page.goto(`${serverUrl}/console`)
  await page.getByLabel('Admin token').fill(adminToken)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.getByRole('heading', { name: 'Apps' }).waitFor()
}

describe('admin console', () => {
  it('an admin signs in, creates an app and changes its settings', async () => {
    const page = await browser.newPage()
    // The app secret is no console credential.
    await page.goto(`${serverUrl}/console`)
    await page.getByLabel('Admin token').fill('lk_sk_not-an-admin-token')
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('alert').getByText('That is not a live admin token').waitFor()

    await signIn(page)
    const name = `Console ${Date.now().toString(36)}`
    const create = page.getByRole('form', { name: 'Create an app' })
    await create.getByLabel('Name').fill(name)
    await create.getByLabel('Allowed origins').fill('https://console-e2e.example')
    await create.getByRole('button', { name: 'Create app' }).click()
    await page.getByRole('heading', { name }).waitFor()
    const id = decodeURIComponent(new URL(page.url()).pathname.split('/')[3] ?? '')
    expect(id).toMatch(/^[a-z0-9]{25}$/)

    const form = page.getByRole('form', { name: 'Settings' })
    await form.getByLabel('User limit').fill('7')
    await form.getByLabel('totp').check()
    await form.getByLabel('guest').check()
    await form.getByLabel('Accent colour').fill('#123456')
    await form.getByRole('button', { name: 'Save settings' }).click()
    await page.getByRole('status').getByText('Saved').waitFor()
    const settings = JSON.parse(await latchkey('apps', 'settings', id))
    expect(settings).toMatchObject({
      max_users: 7,
      mfa_methods: ['totp'],
      accent_color: '#123456',
      login_methods: expect.objectContaining({ guest: true, email: true }),
    })
    // A refused setting shows the CLI's own message.
    await form.getByLabel('Accent colour').fill('blue')
    await form.getByRole('button', { name: 'Save settings' }).click()
    await form.getByRole('alert').getByText('The accent colour must look like #676FFF').waitFor()
    await page.close()
  })

  it('finds a demo user, revokes their sessions (the demo logs out on reload), deletes them', async () => {
    const demo = await browser.newPage()
    const email = uniqueEmail('console')
    const dialog = await logInToDemo(demo, { serverUrl, demoUrl }, email)
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    const id = await userId(demo)
    expect(id).toMatch(/^did:latchkey:/)

    const page = await browser.newPage()
    await signIn(page)
    await page.goto(`${serverUrl}/console/apps/${appId}/users`)
    await page.getByLabel('Search users').fill(email)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('button', { name: id }).click()
    await page.getByRole('heading', { name: 'User' }).waitFor()
    await page.getByText(`email: ${email}`).waitFor()
    await page.getByText('1 live').waitFor()

    await page.getByRole('button', { name: 'Revoke all sessions' }).click()
    await page.getByRole('status').getByText('Ended 1 session.').waitFor()
    await page.getByText('0 live').waitFor()
    await demo.reload()
    await demo.getByRole('button', { name: 'Log in' }).waitFor()
    expect(await demo.getByTestId('user-id').count()).toBe(0)

    await page.getByRole('button', { name: 'Delete user' }).click()
    const confirm = page.getByRole('alertdialog', { name: 'Confirm deletion' })
    await confirm.getByRole('button', { name: 'Delete for good' }).click()
    await page.getByRole('heading', { name: 'Users' }).waitFor()
    await page.getByLabel('Search users').fill(id)
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByText('No user found.').waitFor()
    await expect(latchkey('users', 'delete', id)).rejects.toThrow(`No user ${id}`)
    await Promise.all([page.close(), demo.close()])
  })

  it('finds a user by part of their email, ends one session, shows events and the audit log', async () => {
    const demo = await browser.newPage()
    const email = uniqueEmail('console-half')
    const dialog = await logInToDemo(demo, { serverUrl, demoUrl }, email)
    await dialog.waitFor({ state: 'detached', timeout: 30_000 })
    const id = await userId(demo)

    const page = await browser.newPage()
    await signIn(page)
    await page.goto(`${serverUrl}/console/apps/${appId}/users`)
    // Part of the address, in capitals: the search is a case-insensitive "contains".
    await page.getByLabel('Search users').fill(email.split('@')[0]?.toUpperCase() ?? '')
    await page.getByRole('button', { name: 'Search' }).click()
    await page.getByRole('button', { name: id }).click()
    await page.getByText('1 live').waitFor()
    await page.getByRole('button', { name: /^Revoke session started/ }).click()
    await page.getByRole('status').getByText('Ended the session.').waitFor()
    await page.getByText('0 live').waitFor()
    await demo.reload()
    await demo.getByRole('button', { name: 'Log in' }).waitFor()

    await page.goto(`${serverUrl}/console/apps/${appId}/events`)
    const events = page.getByRole('table', { name: 'Events' })
    await events.getByRole('row').filter({ hasText: id }).filter({ hasText: 'Signed up' }).waitFor()
    await events.getByRole('row').filter({ hasText: id }).filter({ hasText: 'Logged in' }).waitFor()

    await page.getByRole('button', { name: 'Audit log' }).click()
    const audit = page.getByRole('table', { name: 'Audit log' })
    const row = audit.getByRole('row').filter({ hasText: id }).first()
    await row.getByText("Ended a user's session").waitFor()
    await row.getByText('e2e-console').waitFor()
    await Promise.all([page.close(), demo.close()])
  })
})
