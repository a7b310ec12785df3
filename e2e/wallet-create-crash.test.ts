import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type CreateEmbeddedWalletsRequest, routes } from '@latchkey/protocol'
import type { Browser, Page } from 'playwright-core'
import { verifyMessage } from 'viem'
import { afterAll, beforeAll, expect, inject, it } from 'vitest'
import { launchChromium, logInToDemo, signInDemo, uniqueEmail, walletAddress } from './browser.ts'
import { type CrashDatabase, postgresCrashDatabase, sqliteCrashDatabase } from './crash-database.ts'
import type { LatchkeyServerFixture } from './fixtures/latchkey-server.ts'
import {
  freePort,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
} from './server-process.ts'

// ARCHITECTURE "Embedded wallet keys": creating a wallet is atomic. Here the
// real thing: the server process dies (SIGKILL) inside the creating
// transaction, after the browser uploaded the shares and the secret row was
// written, before the wallet rows. Nothing may survive of that attempt —
// neither on the server nor in the enclave — and logging in again creates
// one complete wallet.

const { demoUrl } = inject('e2e')
const APP_ID = 'e2ecrashaaaaaaaaaaaaaaaaa'
const MESSAGE = 'Hello from the Latchkey demo'

/** The keys of the enclave's stored device shares (its origin's IndexedDB), read inside the enclave frame. */
async function deviceShareKeys(page: Page, serverUrl: string): Promise<string[]> {
  const enclave = page.frame({ url: (url) => url.href.startsWith(`${serverUrl}/apps/`) })
  if (!enclave) throw new Error('no enclave frame')
  return enclave.evaluate(async () => {
    // Opening a database that does not exist would create it, empty: look first.
    const names = (await indexedDB.databases()).map((d) => d.name)
    if (!names.includes('latchkey-enclave')) return []
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('latchkey-enclave')
      request.onsuccess = () => resolve(request.result)
      request.onerror = () => reject(request.error)
    })
    try {
      if (!db.objectStoreNames.contains('device-shares')) return []
      const keys = await new Promise<IDBValidKey[]>((resolve, reject) => {
        const request = db.transaction('device-shares').objectStore('device-shares').getAllKeys()
        request.onsuccess = () => resolve(request.result)
        request.onerror = () => reject(request.error)
      })
      return keys.map(String)
    } finally {
      db.close()
    }
  })
}

let browser: Browser
let dataDir: string
let database: CrashDatabase | undefined
let server: ServerProcess | undefined
beforeAll(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'latchkey-e2e-crash-'))
  browser = await launchChromium()
})
afterAll(async () => {
  if (server) await stopServerProcess(server)
  await database?.close()
  await browser?.close()
  if (dataDir) await rm(dataDir, { recursive: true, force: true })
})

it('a server killed between share upload and wallet record leaves no half-created wallet; the retry creates a complete one', async () => {
  database = process.env.DATABASE_URL
    ? await postgresCrashDatabase(process.env.DATABASE_URL)
    : sqliteCrashDatabase(dataDir)
  const { db } = database
  const fixture: LatchkeyServerFixture = {
    port: await freePort(),
    dataDir,
    databaseUrl: database.url,
    appId: APP_ID,
    origin: demoUrl,
  }
  server = await startServerProcess(fixture)
  const serverUrl = server.url
  const urls = {
    serverUrl,
    demoUrl: `${demoUrl}/?apiUrl=${encodeURIComponent(serverUrl)}&appId=${APP_ID}`,
  }
  await database.installStall()

  const email = uniqueEmail('crash')
  const context = await browser.newContext()
  const page = await context.newPage()
  const upload = page.waitForRequest(
    (r) => r.method() === 'POST' && r.url() === `${serverUrl}${routes.embeddedWalletsCreate}`,
  )
  const failureEvent = page.waitForRequest(
    (r) =>
      r.url() === `${serverUrl}${routes.analyticsEvents}` &&
      r.postDataJSON()?.event_name === 'embedded_wallet_creation_failure_logout',
  )
  const logout = page.waitForRequest(
    (r) => r.method() === 'POST' && r.url() === `${serverUrl}${routes.sessionLogout}`,
  )
  // Awaited below; a test failing earlier must not leave them rejecting unhandled.
  for (const waiting of [upload, failureEvent, logout]) waiting.catch(() => {})
  const dialog = await logInToDemo(page, urls, email)

  // The enclave uploads both shares (auth share, recovery share) with the wallets…
  const sent = (await upload).postDataJSON() as CreateEmbeddedWalletsRequest
  expect(sent).toMatchObject({
    auth_share: expect.stringMatching(/.{16}/),
    recovery: { method: 'latchkey', ciphertext: expect.stringMatching(/.{16}/) },
  })
  expect(sent.wallets.map((w) => w.chain_type)).toEqual(['ethereum', 'solana'])
  // …the server writes the secret row and blocks before the wallet rows: kill it there.
  await database.waitForStall()
  server.child.kill('SIGKILL')
  expect(await server.exited).toBe('SIGKILL')
  await database.waitForDeadServer()

  // Nothing half-written: no secret, no wallet account, for this user or these addresses.
  const { user_id: userId } = await db
    .selectFrom('linked_accounts')
    .select('user_id')
    .where('app_id', '=', APP_ID)
    .where('type', '=', 'email')
    .where('identifier', '=', email)
    .executeTakeFirstOrThrow()
  const secretsOf = () =>
    db.selectFrom('wallet_secrets').selectAll().where('user_id', '=', userId).execute()
  const walletsOf = () =>
    db
      .selectFrom('linked_accounts')
      .select(['identifier', 'data'])
      .where('user_id', '=', userId)
      .where('type', '=', 'wallet')
      .orderBy('identifier')
      .execute()
  expect(await secretsOf()).toEqual([])
  expect(await walletsOf()).toEqual([])
  expect(
    await db
      .selectFrom('wallet_secrets')
      .select('entropy_id')
      .where('entropy_id', '=', sent.entropy_id.toLowerCase())
      .execute(),
  ).toEqual([])
  const sentAddresses = sent.wallets.map((w) =>
    w.chain_type === 'ethereum' ? w.address.toLowerCase() : w.address,
  )
  expect(
    await db
      .selectFrom('linked_accounts')
      .select('id')
      .where('identifier', 'in', sentAddresses)
      .execute(),
  ).toEqual([])

  // The browser takes the failure path (spec 02 §2, §4): the message and Close, the user
  // logged out, the event naming the error and the screen, and no device share kept in the
  // enclave (it stores one only after the server confirmed).
  await dialog
    .getByRole('heading', { name: 'Could not reach the server' })
    .waitFor({ timeout: 15_000 })
  expect(await dialog.getByRole('button', { name: /Retry|Go back/ }).count()).toBe(0)
  expect((await failureEvent).postDataJSON().payload).toMatchObject({
    error: 'NETWORK_ERROR',
    screen: 'wallet-creation',
  })
  await logout
  await page.getByRole('heading', { name: 'Log in to the Latchkey demo' }).waitFor()
  expect(await deviceShareKeys(page, serverUrl)).toEqual([])
  await dialog.locator('.lk-actions').getByRole('button', { name: 'Close' }).click()
  await dialog.waitFor({ state: 'detached' })

  // Restart on the same port and database, without the stall; the same user logs in again.
  await database.removeStall()
  server = await startServerProcess(fixture)
  expect(server.url).toBe(serverUrl)
  const again = await logInToDemo(page, urls, email)
  await again.getByRole('heading', { name: 'All set!' }).waitFor({ timeout: 30_000 })
  await again.waitFor({ state: 'detached', timeout: 10_000 })

  const ethereum = await walletAddress(page, 'wallet-ethereum-0')
  const solana = await walletAddress(page, 'wallet-solana-0')
  const entropyId = ethereum.toLowerCase()
  expect(ethereum).toMatch(/^0x[0-9a-fA-F]{40}$/)
  expect(entropyId).not.toBe(sent.entropy_id.toLowerCase()) // a fresh secret, not the lost one
  // One complete wallet: one secret with both shares, an Ethereum and a Solana account.
  expect(await secretsOf()).toEqual([
    expect.objectContaining({
      entropy_id: entropyId,
      entropy_type: 'hd',
      recovery_method: 'latchkey',
      auth_share: expect.stringMatching(/.{16}/),
      recovery_ciphertext: expect.stringMatching(/.{16}/),
      recovery_key: expect.stringMatching(/.{16}/),
    }),
  ])
  const wallets = (await walletsOf()).map((row) => ({
    identifier: row.identifier,
    ...(JSON.parse(row.data) as { chain_type: string; secret_id: string }),
  }))
  expect(wallets).toEqual(
    expect.arrayContaining([
      expect.objectContaining({
        identifier: entropyId,
        chain_type: 'ethereum',
        secret_id: entropyId,
      }),
      expect.objectContaining({ identifier: solana, chain_type: 'solana', secret_id: entropyId }),
    ]),
  )
  expect(wallets).toHaveLength(2)
  expect(await deviceShareKeys(page, serverUrl)).toEqual([`${APP_ID}:${entropyId}`])

  // Both shares rebuild the key: the device share here, the auth share from the server.
  const signature = await signInDemo(page)
  expect(
    await verifyMessage({
      address: ethereum as `0x${string}`,
      message: MESSAGE,
      signature: signature as `0x${string}`,
    }),
  ).toBe(true)
  await context.close()
})
