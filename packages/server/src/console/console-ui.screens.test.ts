// @vitest-environment happy-dom
import { cleanup, configure, fireEvent, render, screen, within } from '@testing-library/react'
import { createElement } from 'react'
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { AppSettingsScreen } from '../../console/src/screens/AppSettingsScreen.tsx'
import { AuditScreen } from '../../console/src/screens/AuditScreen.tsx'
import { EventsScreen } from '../../console/src/screens/EventsScreen.tsx'
import { UserScreen } from '../../console/src/screens/UserScreen.tsx'
import { UsersScreen } from '../../console/src/screens/UsersScreen.tsx'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { sessionIdOf } from '../test/mfa.ts'
import { createAdminWithCli } from './console.test-helper.ts'
import { CONSOLE_COOKIE, startConsoleSession } from './sessions.ts'

// The console's new screens (docs/console.md) rendered in happy-dom, their
// `fetch` answered by a real server in process (its console API, a signed-in
// session's cookie): paging, partial search, one session ended, MFA reset
// confirmed first, the events view, the audit log and the extra settings.
configure({ asyncUtilTimeout: 5_000 })
let t: TestInstance
const realFetch = globalThis.fetch
const navigate = () => {}
const onError = () => {}
const userIds: string[] = []

beforeAll(async () => {
  const many = { limit: 10_000, windowMs: 60 * 60_000 }
  t = await getTestInstance({ rateLimits: { codeSendsPerIp: many, codeAttemptsPerIp: many } })
  // Signed in server-side: happy-dom's Response hides Set-Cookie, as a browser does.
  const admin = await createAdminWithCli(t, 'ops')
  const session = await startConsoleSession(t.db, admin.id, t.clock.now())
  globalThis.fetch = (async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const request = new Request(new URL(String(input), t.ownOrigin), init)
    // What the browser adds itself (happy-dom's Request refuses it in the constructor).
    request.headers.set('cookie', `${CONSOLE_COOKIE}=${session}`)
    return t.server.app.request(request)
  }) as typeof fetch
  for (let i = 0; i < 52; i++) {
    userIds.push((await t.login(`screen${String(i).padStart(2, '0')}@ui.example`)).user.id)
    t.clock.advance(1)
  }
})
afterEach(cleanup)
afterAll(async () => {
  globalThis.fetch = realFetch
  await t.close()
})

it('users: 50 a page, "Next page" shows the rest, a partial search finds one', async () => {
  render(createElement(UsersScreen, { appId: t.app.id, navigate, onError }))
  await screen.findByRole('button', { name: userIds[49] })
  expect(screen.queryByRole('button', { name: userIds[50] })).toBeNull()
  fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
  await screen.findByRole('button', { name: userIds[51] })
  expect(screen.getByText('Page 2')).toBeTruthy()
  expect((screen.getByRole('button', { name: 'Next page' }) as HTMLButtonElement).disabled).toBe(
    true,
  )
  fireEvent.change(screen.getByLabelText('Search users'), { target: { value: 'SCREEN07@' } })
  fireEvent.click(screen.getByRole('button', { name: 'Search' }))
  await screen.findByText('Page 1')
  await screen.findByRole('button', { name: userIds[7] })
  expect(screen.getAllByRole('listitem')).toHaveLength(1)
})

it('user: ends one session from its row, and resets MFA only after confirming', async () => {
  const first = await t.login('screen00@ui.example')
  const userId = first.user.id
  await t.db
    .insertInto('mfa_factors')
    .values({
      id: 'factor-ui',
      app_id: t.app.id,
      user_id: userId,
      method: 'passkey',
      secret: null,
      enabled: 1,
      last_used_step: null,
      created_at: t.clock.now(),
      enabled_at: t.clock.now(),
      expires_at: null,
    })
    .execute()
  render(createElement(UserScreen, { appId: t.app.id, userId, navigate, onError }))
  await screen.findByText('2 live')
  const revoke = screen.getAllByRole('button', { name: /^Revoke session started/ })
  expect(revoke).toHaveLength(2)
  fireEvent.click(revoke[0] as HTMLElement)
  expect((await screen.findByRole('status')).textContent).toBe('Ended the session.')
  await screen.findByText('1 live')
  const live = await t.db
    .selectFrom('sessions')
    .select('id')
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute()
  expect(live).toHaveLength(1)
  expect(live[0]?.id === sessionIdOf(first.token ?? '')).toBe(false)

  t.clock.advance(1) // the audit log orders the two changes by time
  fireEvent.click(screen.getByRole('button', { name: 'Reset MFA' }))
  expect(await t.countRows('mfa_factors')).toBe(1)
  const confirm = screen.getByRole('alertdialog', { name: 'Confirm MFA reset' })
  fireEvent.click(within(confirm).getByRole('button', { name: 'Reset MFA for good' }))
  await screen.findByText('Reset MFA (passkey); every session ended.')
  await screen.findByText('None enrolled.')
  expect(await t.countRows('mfa_factors')).toBe(0)
  await screen.findByText('0 live')
})

it('events: sign-ups and logins newest first, 50 a page', async () => {
  render(createElement(EventsScreen, { appId: t.app.id, navigate, onError }))
  const table = await screen.findByRole('table', { name: 'Events' })
  await within(table).findAllByText('Logged in')
  expect(within(table).getAllByRole('row')).toHaveLength(51)
  fireEvent.change(screen.getByLabelText('Show'), { target: { value: 'user.created' } })
  await within(table).findByRole('button', { name: userIds[51] })
  expect(within(table).queryByText('Logged in')).toBeNull()
  fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
  await within(table).findByRole('button', { name: userIds[1] })
  expect(within(table).getAllByRole('row')).toHaveLength(3)
})

it('audit log: lists the changes made above, newest first', async () => {
  render(createElement(AuditScreen, { navigate, onError }))
  const table = await screen.findByRole('table', { name: 'Audit log' })
  await within(table).findByText("Reset a user's MFA")
  const rows = within(table).getAllByRole('row')
  expect(rows.slice(1).map((row) => row.children[2]?.textContent)).toEqual([
    "Reset a user's MFA",
    "Ended a user's session",
  ])
  expect(rows[1]?.textContent).toContain('ops')
})

it('more settings: allowlist entries, chains and recovery saved; a bad value shows the CLI`s message', async () => {
  render(createElement(AppSettingsScreen, { appId: t.app.id, navigate, onError }))
  const form = await screen.findByRole('form', { name: 'Wallets, funding and access' })
  fireEvent.change(within(form).getByLabelText(/^One a line/), {
    target: { value: 'email_domain @ui.example\nemail ada@else.example' },
  })
  fireEvent.change(within(form).getByLabelText(/^EVM chain ids/), { target: { value: '1, 8453' } })
  // Absent from the settings, passcode recovery is the server's default: shown ticked.
  expect((within(form).getByLabelText('user-passcode') as HTMLInputElement).checked).toBe(true)
  fireEvent.click(within(form).getByLabelText('google-drive'))
  fireEvent.click(within(form).getByRole('button', { name: 'Save more settings' }))
  await screen.findByText(/^Saved/)
  const settings = (
    await t.db
      .selectFrom('apps')
      .select('settings')
      .where('id', '=', t.app.id)
      .executeTakeFirstOrThrow()
  ).settings
  expect(JSON.parse(settings)).toMatchObject({
    allowlist: {
      entries: [
        { type: 'email_domain', value: '@ui.example' },
        { type: 'email', value: 'ada@else.example' },
      ],
    },
    chains: [1, 8453],
    embedded_wallet_config: { user_owned_recovery_options: ['user-passcode', 'google-drive'] },
  })
  const again = await screen.findByRole('form', { name: 'Wallets, funding and access' })
  fireEvent.change(within(again).getByLabelText(/^One a line/), { target: { value: 'fax 123' } })
  fireEvent.click(within(again).getByRole('button', { name: 'Save more settings' }))
  const alert = await within(again).findByRole('alert')
  expect(alert.textContent).toMatch(/^Invalid allowlist: entries\.0\.type/)
})

it('more settings: funding options in order and the MoonPay key, validated as the CLI does', async () => {
  render(createElement(AppSettingsScreen, { appId: t.app.id, navigate, onError }))
  const form = await screen.findByRole('form', { name: 'Wallets, funding and access' })
  const options = within(form).getByLabelText(/^Options, one a line/)
  fireEvent.change(options, { target: { value: 'wallets\ncard moonpay' } })
  fireEvent.change(within(form).getByLabelText(/^MoonPay publishable key/), {
    target: { value: 'pk_test_abc123' },
  })
  fireEvent.click(within(form).getByRole('button', { name: 'Save more settings' }))
  await screen.findByText(/^Saved/)
  const { settings } = await t.db
    .selectFrom('apps')
    .select('settings')
    .where('id', '=', t.app.id)
    .executeTakeFirstOrThrow()
  expect(JSON.parse(settings).funding).toMatchObject({
    options: [
      { method: 'wallets', provider: null },
      { method: 'card', provider: 'moonpay' },
    ],
    moonpay: { publishable_key: 'pk_test_abc123', sandbox: false },
  })
  const again = await screen.findByRole('form', { name: 'Wallets, funding and access' })
  fireEvent.change(within(again).getByLabelText(/^Options, one a line/), {
    target: { value: 'card' },
  })
  fireEvent.click(within(again).getByRole('button', { name: 'Save more settings' }))
  expect((await within(again).findByRole('alert')).textContent).toBe(
    'funding: card needs provider moonpay or coinbase, exchange needs coinbase, wallets and manual need null',
  )
})
