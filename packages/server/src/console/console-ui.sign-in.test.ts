// @vitest-environment happy-dom
import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeAll, expect, it } from 'vitest'
import { getAppProviderCredentials } from '../apps/credentials.ts'
import type { TestInstance } from '../test/instance.ts'
import {
  renderAppSettings,
  setUpConsoleScreens,
  storedSettings,
  typeInto,
} from './console-ui.test-helper.ts'

// The console's "Sign-in providers" form (screens/SignInSettingsForm.tsx) in
// happy-dom, its `fetch` answered by a real server in process: an OAuth
// client, custom JWT, cross-app and the Telegram bot saved as the CLI would
// store them (credentials sealed, settings merged), secrets never shown back,
// and a refused value or credential shown with the server's message.
const consoleInstance = setUpConsoleScreens()
let t: TestInstance
const CLIENT_SECRET = 'GOCSPX-console-secret-0123456789'
const BOT_TOKEN = '7654321:AAH-telegram-secret-token-0123456789'

beforeAll(() => {
  t = consoleInstance()
})

const credentials = (provider: 'google' | 'github' | 'telegram') =>
  getAppProviderCredentials({ db: t.db, secrets: t.server.services.secrets }, t.app.id, provider)
const type = typeInto
const showForm = () => {
  renderAppSettings(t)
  return screen.findByRole('form', { name: 'Sign-in providers' })
}
const save = (form: HTMLElement) =>
  fireEvent.click(within(form).getByRole('button', { name: 'Save sign-in providers' }))

it('saves an OAuth client, custom JWT, cross-app and the Telegram bot; shows no secret back', async () => {
  const form = await showForm()
  type(form, 'google client id', 'client-1.apps.example')
  type(form, 'google client secret', CLIENT_SECRET)
  fireEvent.click(within(form).getByLabelText(/^Return the provider/))
  type(form, 'JWKS URL (https)', 'https://auth.example.com/jwks.json')
  type(form, /^Issuer/, 'https://auth.example.com')
  type(form, /^Audience/, 'latchkey')
  fireEvent.click(within(form).getByLabelText(/^Other apps on this server may log in/))
  type(form, /^Page that hosts/, 'https://wallet.example.com/cross-app')
  type(form, 'Bot username', 'example_bot')
  type(form, 'Bot token (from BotFather)', BOT_TOKEN)
  fireEvent.click(within(form).getByLabelText(/^Log in at once inside a Telegram Mini App/))
  save(form)
  await screen.findByText(/^Saved/)

  expect(await storedSettings(t)).toMatchObject({
    oauth: { return_provider_tokens: true },
    custom_auth: {
      jwks_url: 'https://auth.example.com/jwks.json',
      issuer: 'https://auth.example.com',
      audience: 'latchkey',
    },
    cross_app: {
      enabled: true,
      read_only: false,
      custom_api_url: 'https://wallet.example.com/cross-app',
    },
    telegram_auth_config: {
      bot_id: '7654321',
      bot_name: 'example_bot',
      link_enabled: true,
      seamless_auth_enabled: true,
    },
  })
  expect(await credentials('google')).toEqual({
    provider: 'google',
    client_id: 'client-1.apps.example',
    client_secret: CLIENT_SECRET,
  })
  expect(await credentials('telegram')).toMatchObject({
    bot_name: 'example_bot',
    bot_token: BOT_TOKEN,
  })

  // Shown again, once reloaded: the public halves, the secret fields empty and marked as set.
  const secret = await waitFor(() => {
    const input = screen.getByLabelText('google client secret') as HTMLInputElement
    expect(input.placeholder).toBe('Set (empty: keep it)')
    return input
  })
  expect(secret.value).toBe('')
  const again = screen.getByRole('form', { name: 'Sign-in providers' })
  expect((within(again).getByLabelText('google client id') as HTMLInputElement).value).toBe(
    'client-1.apps.example',
  )
  expect(document.body.innerHTML).not.toContain(CLIENT_SECRET)
  expect(document.body.innerHTML).not.toContain(BOT_TOKEN.split(':')[1])

  // A new client id alone keeps the stored secret.
  type(again, 'google client id', 'client-2.apps.example')
  save(again)
  await expect
    .poll(() => credentials('google'))
    .toEqual({
      provider: 'google',
      client_id: 'client-2.apps.example',
      client_secret: CLIENT_SECRET,
    })
})

it('shows the server`s message for a refused setting or credential, and stores neither', async () => {
  const before = await storedSettings(t)
  const form = await showForm()
  type(form, 'JWKS URL (https)', 'http://auth.example.com/jwks.json')
  save(form)
  expect((await within(form).findByRole('alert')).textContent).toBe(
    'Invalid custom_auth: jwks_url: jwks_url must be an https URL (http only on localhost)',
  )
  expect(await storedSettings(t)).toEqual(before)

  type(form, 'JWKS URL (https)', 'https://auth.example.com/jwks.json')
  type(form, 'github client id', 'Iv1.abc')
  type(form, 'github client secret', 'has a space')
  save(form)
  expect((await within(form).findByRole('alert')).textContent).toBe(
    'Invalid github credentials: client_secret: client_secret must be printable ASCII without spaces',
  )
  expect(await credentials('github')).toBeUndefined()
  expect(await storedSettings(t)).toEqual(before)
})
