// @vitest-environment happy-dom
import { generateKeyPairSync } from 'node:crypto'
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, expect, it } from 'vitest'
import { type CredentialProvider, getAppProviderCredentials } from '../apps/credentials.ts'
import type { TestInstance } from '../test/instance.ts'
import { renderAppSettings, setUpConsoleScreens, typeInto } from './console-ui.test-helper.ts'

// The console's credential blocks (screens/CredentialFields.tsx) in happy-dom,
// beside the settings they serve, their `fetch` answered by a real server in
// process: each saved as `apps credentials set` stores it, its secret never
// shown back, an empty secret keeping the stored one, a refused value shown
// with the server's message, and Remove (after the Confirm box) deleting it
// as `apps credentials delete` does — all in the audit log.
const consoleInstance = setUpConsoleScreens({ tick: true })
let t: TestInstance
const DRIVE_SECRET = 'GOCSPX-drive-console-secret-0123'
const CLOUDKIT_TOKEN = 'cloudkit-console-token-0123456789'
const TURNSTILE_SECRET = '0x4AAAAAAA-console-turnstile-0123'
const MOONPAY_SECRET = 'sk_test_consolemoonpay0123456789'
const CDP_PEM = generateKeyPairSync('ec', { namedCurve: 'P-256' })
  .privateKey.export({ type: 'sec1', format: 'pem' })
  .toString()
const CUSTODY_KEY = `0x${'5e'.repeat(32)}`

beforeAll(() => {
  t = consoleInstance()
})

const stored = <P extends CredentialProvider>(provider: P) =>
  getAppProviderCredentials({ db: t.db, secrets: t.server.services.secrets }, t.app.id, provider)
/** The block of one provider, once the screen has read what is stored. */
const block = (title: string) => screen.findByRole('group', { name: `${title} credentials` })
const type = typeInto
const save = async (group: HTMLElement, title: string) => {
  fireEvent.click(within(group).getByRole('button', { name: `Save ${title} credentials` }))
  // The block starts afresh when its stored public half changes: find it again.
  return waitFor(() =>
    within(screen.getByRole('group', { name: `${title} credentials` })).getByRole('status'),
  )
}
const showScreen = () => renderAppSettings(t)

it('saves each credential beside its settings; shows only the public half back', async () => {
  showScreen()
  const drive = await block('Google Drive backup')
  // Beside the settings it serves: inside the wallet recovery fieldset.
  expect(drive.parentElement?.querySelector('legend')?.textContent).toBe('Wallet recovery')
  type(drive, 'Google Drive backup OAuth client id', 'drive.apps.example')
  type(drive, 'Google Drive backup client secret', DRIVE_SECRET)
  await save(drive, 'Google Drive backup')

  const icloud = await block('iCloud backup')
  type(icloud, 'iCloud backup CloudKit container id', 'iCloud.com.example.app')
  fireEvent.change(within(icloud).getByLabelText('iCloud backup CloudKit environment'), {
    target: { value: 'development' },
  })
  type(icloud, 'iCloud backup CloudKit API token', CLOUDKIT_TOKEN)
  await save(icloud, 'iCloud backup')

  const turnstile = await block('Turnstile')
  expect(turnstile.parentElement?.querySelector('legend')?.textContent).toBe('Login options')
  type(turnstile, 'Turnstile secret key', TURNSTILE_SECRET)
  await save(turnstile, 'Turnstile')

  const moonpay = await block('MoonPay')
  expect(moonpay.parentElement?.querySelector('legend')?.textContent).toBe('Funding')
  type(moonpay, 'MoonPay secret key', MOONPAY_SECRET)
  await save(moonpay, 'MoonPay')

  const coinbase = await block('Coinbase Onramp')
  type(coinbase, 'Coinbase Onramp CDP API key name or id', 'organizations/org-1/apiKeys/key-1')
  type(coinbase, 'Coinbase Onramp CDP API key secret (PEM or base64)', CDP_PEM)
  await save(coinbase, 'Coinbase Onramp')

  const farcaster = await block('Farcaster signer')
  expect(farcaster.parentElement?.querySelector('legend')?.textContent).toBe('Farcaster')
  type(farcaster, "Farcaster signer requesting FID (the app's fid)", '12345')
  type(farcaster, 'Farcaster signer custody key (0x private key or mnemonic)', CUSTODY_KEY)
  await save(farcaster, 'Farcaster signer')

  expect(await stored('google-drive')).toEqual({
    provider: 'google-drive',
    client_id: 'drive.apps.example',
    client_secret: DRIVE_SECRET,
  })
  expect(await stored('icloud')).toEqual({
    provider: 'icloud',
    container_id: 'iCloud.com.example.app',
    environment: 'development',
    api_token: CLOUDKIT_TOKEN,
  })
  expect(await stored('turnstile')).toEqual({ provider: 'turnstile', secret_key: TURNSTILE_SECRET })
  expect(await stored('moonpay')).toEqual({ provider: 'moonpay', secret_key: MOONPAY_SECRET })
  expect(await stored('coinbase-onramp')).toEqual({
    provider: 'coinbase-onramp',
    api_key_name: 'organizations/org-1/apiKeys/key-1',
    api_key_secret: CDP_PEM.trim(),
  })
  expect(await stored('farcaster-signer')).toEqual({
    provider: 'farcaster-signer',
    request_fid: '12345',
    custody_key: CUSTODY_KEY,
  })
  cleanup()

  // Shown again from a fresh read: public halves, secrets empty and marked as set.
  showScreen()
  const again = await block('iCloud backup')
  expect(within(again).getByText(/^Set: iCloud\.com\.example\.app, development/)).toBeTruthy()
  const token = within(again).getByLabelText('iCloud backup CloudKit API token') as HTMLInputElement
  expect(token.value).toBe('')
  expect(token.placeholder).toBe('Set (empty: keep it)')
  expect(within(await block('MoonPay')).getByText(/^Set \(/)).toBeTruthy()
  for (const secret of [
    DRIVE_SECRET,
    CLOUDKIT_TOKEN,
    TURNSTILE_SECRET,
    MOONPAY_SECRET,
    CUSTODY_KEY,
    CDP_PEM.split('\n')[1] ?? CDP_PEM,
  ])
    expect(document.body.innerHTML).not.toContain(secret)

  // A new public half alone keeps the stored secret.
  const farcaster2 = await block('Farcaster signer')
  type(farcaster2, "Farcaster signer requesting FID (the app's fid)", '777')
  await save(farcaster2, 'Farcaster signer')
  expect(await stored('farcaster-signer')).toEqual({
    provider: 'farcaster-signer',
    request_fid: '777',
    custody_key: CUSTODY_KEY,
  })
})

it('shows the server`s message for a refused value and stores nothing', async () => {
  showScreen()
  const moonpay = await block('MoonPay')
  type(moonpay, 'MoonPay secret key', 'pk_live_publishable0123')
  fireEvent.click(within(moonpay).getByRole('button', { name: 'Save MoonPay credentials' }))
  expect((await within(moonpay).findByRole('alert')).textContent).toBe(
    'Invalid moonpay credentials: secret_key: secret_key must look like sk_live_… or sk_test_…',
  )
  expect((await stored('moonpay'))?.secret_key).toBe(MOONPAY_SECRET)
})

it('Remove deletes a credential after the Confirm box; Cancel keeps it; both audited', async () => {
  showScreen()
  const turnstile = await block('Turnstile')
  fireEvent.click(within(turnstile).getByRole('button', { name: 'Remove' }))
  fireEvent.click(
    within(
      within(turnstile).getByRole('alertdialog', { name: 'Remove the Turnstile credentials' }),
    ).getByRole('button', { name: 'Cancel' }),
  )
  expect(await stored('turnstile')).toBeDefined()

  fireEvent.click(within(turnstile).getByRole('button', { name: 'Remove' }))
  fireEvent.click(
    within(turnstile).getByRole('button', { name: 'Remove the Turnstile credentials' }),
  )
  const removed = await waitFor(() => {
    const group = screen.getByRole('group', { name: 'Turnstile credentials' })
    within(group).getByText('Turnstile credentials removed.')
    return group
  })
  expect(await stored('turnstile')).toBeUndefined()
  expect(within(removed).getByText(/^Not set/)).toBeTruthy()
  expect(within(removed).queryByRole('button', { name: 'Remove' })).toBeNull()

  const rows = await t.db
    .selectFrom('admin_audit')
    .select(['action', 'target'])
    .orderBy('created_at')
    .execute()
  expect(rows.map((row) => `${row.action} ${row.target}`)).toEqual([
    'app.credentials_set google-drive',
    'app.credentials_set icloud',
    'app.credentials_set turnstile',
    'app.credentials_set moonpay',
    'app.credentials_set coinbase-onramp',
    'app.credentials_set farcaster-signer',
    'app.credentials_set farcaster-signer',
    'app.credentials_deleted turnstile',
  ])
})

it('Remove deletes an OAuth client from the sign-in form, audited', async () => {
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'github',
    client_id: 'Iv1.console',
    client_secret: 'github-secret-0123',
  })
  showScreen()
  const form = await screen.findByRole('form', { name: 'Sign-in providers' })
  const row = within(form).getByLabelText('github client id').closest('tr') as HTMLElement
  fireEvent.click(within(row).getByRole('button', { name: 'Remove' }))
  fireEvent.click(within(row).getByRole('button', { name: 'Remove the github client' }))
  await screen.findByText('The github client removed.')
  expect(await stored('github')).toBeUndefined()
  await waitFor(() =>
    expect((screen.getByLabelText('github client secret') as HTMLInputElement).placeholder).toBe(
      'Not set',
    ),
  )
  const last = await t.db
    .selectFrom('admin_audit')
    .select(['action', 'target'])
    .orderBy('created_at', 'desc')
    .executeTakeFirstOrThrow()
  expect(last).toEqual({ action: 'app.credentials_deleted', target: 'github' })
})
