// @vitest-environment happy-dom
import { routes } from '@latchkey/protocol'
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, expect, it } from 'vitest'
import type { TestInstance } from '../test/instance.ts'
import {
  renderAppSettings,
  setUpConsoleScreens,
  storedSettings,
  typeInto,
} from './console-ui.test-helper.ts'

// The allowlist rejection texts and the embedded-wallet mode in the console's
// "More settings" form (screens/MoreSettingsForm.tsx) in happy-dom, its
// `fetch` answered by a real server in process: saved as the CLI would store
// them, served in the app config, and a refused value shown with the
// server's message and not stored.
const consoleInstance = setUpConsoleScreens()
let t: TestInstance
const SERVER_ONLY = 'user-controlled-server-wallets-only'

beforeAll(() => {
  t = consoleInstance()
})

const type = typeInto
const FORM = { name: 'Wallets, funding and access' }
const showForm = () => {
  renderAppSettings(t)
  return screen.findByRole('form', FORM)
}
const save = (form: HTMLElement) =>
  fireEvent.click(within(form).getByRole('button', { name: 'Save more settings' }))
const value = (form: HTMLElement, label: string | RegExp) =>
  (within(form).getByLabelText(label) as HTMLInputElement | HTMLSelectElement).value

it('saves the rejection texts and the wallet mode, serves them, and shows them back', async () => {
  const form = await showForm()
  type(form, 'Refusal title', 'Invite only')
  type(form, 'Refusal detail', 'Ask the team for an invitation')
  type(form, 'Refusal button text', 'Request access')
  type(form, /^Refusal button link/, 'https://example.com/join')
  type(form, /^Embedded wallet mode/, SERVER_ONLY)
  save(form)
  await screen.findByText(/^Saved/)

  const stored = await storedSettings(t)
  expect(stored.allowlist_config).toEqual({
    error_title: 'Invite only',
    error_detail: 'Ask the team for an invitation',
    error_cta_text: 'Request access',
    error_cta_link: 'https://example.com/join',
  })
  expect(stored.embedded_wallet_config).toEqual({ mode: SERVER_ONLY })
  const { body } = await t.request(routes.appConfig(t.app.id), { appId: t.app.id })
  expect(body.allowlist_config).toEqual(stored.allowlist_config)
  expect(body.embedded_wallet_config).toMatchObject({ mode: SERVER_ONLY })

  // Shown again once reloaded; emptying every text removes the setting.
  await waitFor(() =>
    expect(value(screen.getByRole('form', FORM), 'Refusal title')).toBe('Invite only'),
  )
  const again = screen.getByRole('form', FORM)
  expect(value(again, /^Embedded wallet mode/)).toBe(SERVER_ONLY)
  for (const label of ['Refusal title', 'Refusal detail', 'Refusal button text'])
    type(again, label, '')
  type(again, /^Refusal button link/, '')
  save(again)
  await expect.poll(async () => (await storedSettings(t)).allowlist_config).toBeUndefined()
  expect((await storedSettings(t)).embedded_wallet_config).toEqual({ mode: SERVER_ONLY })
})

it('shows the server`s message for a refused link or mode, and stores nothing', async () => {
  const before = await storedSettings(t)
  const form = await showForm()
  type(form, /^Refusal button link/, 'javascript:alert(1)')
  save(form)
  expect((await within(form).findByRole('alert')).textContent).toBe(
    'Invalid allowlist_config: error_cta_link: must be an http(s) URL',
  )
  expect(await storedSettings(t)).toEqual(before)

  type(form, /^Refusal button link/, '')
  type(form, /^Embedded wallet mode/, SERVER_ONLY)
  fireEvent.click(within(form).getByLabelText(/^Require a user-owned recovery/))
  save(form)
  await waitFor(() =>
    expect(within(form).getByRole('alert').textContent).toBe(
      'embedded_wallet_config: user-controlled-server-wallets-only allows no user-owned recovery, so it cannot require one on create',
    ),
  )
  expect(await storedSettings(t)).toEqual(before)
})
