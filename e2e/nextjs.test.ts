import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { launchChromium, readCode, typeCode, uniqueEmail } from './browser.ts'
import {
  freePort,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
} from './server-process.ts'

// Tracker issue 23, docs/nextjs.md: examples/nextjs (App Router) built with
// `next build` and served by `next start` against a Latchkey server. The
// provider renders on the server, the browser hydrates it without a warning,
// and after a login the server component reads the user through
// verifyAccessToken from the `latchkey-token` cookie.

const ROOT = join(import.meta.dirname, '..')
const EXAMPLE = join(ROOT, 'examples/nextjs')
const NEXT_BIN = createRequire(join(EXAMPLE, 'package.json')).resolve('next/dist/bin/next')
const APP_ID = 'e2enextjsaaaaaaaaaaaaaaaa'
// Next asks to send telemetry; a test run sends nothing.
const NEXT_ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' }

/**
 * `next build` unless examples/nextjs/.next holds a build of the same inputs
 * (scripts/build-nextjs-if-stale.mjs; `.ci/run` builds it in its build stage).
 */
function buildIfStale(): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'scripts/build-nextjs-if-stale.mjs')], {
      cwd: ROOT,
      env: NEXT_ENV,
    })
    let output = ''
    child.stdout.on('data', (chunk) => (output += chunk))
    child.stderr.on('data', (chunk) => (output += chunk))
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0
        ? resolve(output.trim())
        : reject(new Error(`the example's build failed:\n${output}`)),
    )
  })
}

/** `next start` on `port`, resolved once it says it is ready. */
function nextStart(port: number, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [NEXT_BIN, 'start', '-H', '127.0.0.1', '-p', String(port)],
    {
      cwd: EXAMPLE,
      env,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
    lines.on('line', (line) => {
      if (/Ready in/.test(line)) resolve(child)
    })
    child.once('error', reject)
    child.once('exit', (code) =>
      reject(new Error(`next start exited (${code}) before it was ready`)),
    )
  })
}

let browser: Browser
let dataDir: string
let latchkey: ServerProcess | undefined
let nextServer: ChildProcess | undefined
let siteUrl: string
let built = ''

beforeAll(async () => {
  const port = await freePort()
  siteUrl = `http://127.0.0.1:${port}`
  dataDir = await mkdtemp(join(tmpdir(), 'latchkey-e2e-nextjs-'))
  // The Latchkey server starts meanwhile (the build does not need it).
  const [server] = await Promise.all([
    startServerProcess({ port: await freePort(), dataDir, appId: APP_ID, origin: siteUrl }),
    buildIfStale().then((output) => {
      built = output
    }),
  ])
  latchkey = server
  nextServer = await nextStart(port, {
    ...NEXT_ENV,
    LATCHKEY_APP_ID: APP_ID,
    LATCHKEY_API_URL: server.url,
    // The server signs as its publicUrl, by default http://localhost:PORT
    // (packages/server/src/config.ts), while the test reaches it on 127.0.0.1.
    LATCHKEY_ISSUER: server.url.replace('127.0.0.1', 'localhost'),
  })
  browser = await launchChromium()
}, 600_000)

afterAll(async () => {
  await browser?.close()
  if (nextServer && nextServer.exitCode === null) {
    const exited = new Promise((resolve) => nextServer?.once('exit', resolve))
    nextServer.kill('SIGTERM')
    await exited
  }
  if (latchkey) await stopServerProcess(latchkey)
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
  if (built) console.info(built)
})

it('renders the provider on the server, hydrates without a warning, and reads the session in a server component', async () => {
  // The HTML before any script: the provider's subtree rendered on the server.
  const html = await (await fetch(siteUrl)).text()
  expect(html).toContain('data-testid="latchkey-status"')
  expect(html).toContain('Loading…')
  expect(html).toContain('The server sees no session.')

  const context = await browser.newContext()
  const page = await context.newPage()
  const problems: string[] = []
  // React reports a hydration mismatch as an error (production build: #418/#423/#425).
  page.on('console', (message) => {
    if (message.type() === 'error' || /hydrat/i.test(message.text()))
      problems.push(`${message.type()}: ${message.text()}`)
  })
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))

  await page.goto(siteUrl)
  // Hydrated: the session was restored in the browser and the button works.
  const logIn = page.getByRole('button', { name: 'Log in' })
  await logIn.waitFor()
  expect(problems).toEqual([])

  const email = uniqueEmail('nextjs')
  await logIn.click()
  const dialog = page.getByRole('dialog')
  const sentAfter = Math.floor(Date.now() / 1000) - 1
  await dialog.getByRole('textbox', { name: /email/i }).fill(email)
  await dialog.getByRole('button', { name: 'Submit' }).click()
  await dialog.getByRole('textbox', { name: 'Digit 1 of 6' }).waitFor()
  await typeCode(page, await readCode(latchkey?.url ?? '', email, sentAfter))

  const browserUserId = page.getByTestId('latchkey-status').locator('code')
  await browserUserId.waitFor()
  const userId = (await browserUserId.textContent())?.trim() ?? ''
  expect(userId).toMatch(/^did:latchkey:/)
  // The login made the server components render again (router.refresh) with the new cookie.
  await expect.poll(() => page.getByTestId('server-user-id').textContent()).toBe(userId)

  // A reload: the server's HTML itself names the user, verified from the cookie.
  const response = await page.reload()
  const reloaded = (await response?.text()) ?? ''
  expect(reloaded).toContain(`data-testid="server-user-id">${userId}</code>`)
  await page.getByTestId('latchkey-status').locator('code').waitFor()
  expect(await page.getByTestId('server-user-id').textContent()).toBe(userId)

  // Only the access token reaches a cookie, and only this site's, SameSite=Strict.
  const cookies = await context.cookies(siteUrl)
  const token = cookies.find((cookie) => cookie.name === 'latchkey-token')
  expect(token).toMatchObject({ sameSite: 'Strict', path: '/', httpOnly: false })
  expect(cookies.map((cookie) => cookie.name).sort()).toEqual([
    'latchkey-session',
    'latchkey-token',
  ])

  // Logging out clears it: the next server render sees no session.
  await page.getByRole('button', { name: 'Log out' }).click()
  await expect
    .poll(() => page.getByTestId('server-session').textContent())
    .toBe('The server sees no session.')
  expect(problems).toEqual([])
  await context.close()
})
