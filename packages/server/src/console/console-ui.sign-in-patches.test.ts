import { expect, it } from 'vitest'
import type { SignInCredential } from '../../console/src/api.ts'
import {
  botIdOf,
  credentialChangesOf,
  idsOf,
  type SignInFields,
  signInFieldsOf,
  signInPatchOf,
} from '../../console/src/sign-in-settings.ts'
import { providerCredentialsSchema } from '../apps/credentials.ts'
import { assertCrossAppSettings } from '../auth/cross-app/schema.ts'
import { assertCustomAuthSettings } from '../auth/custom-jwt/schema.ts'
import { assertTelegramAuthSettings } from '../auth/telegram/schema.ts'

// The console's "Sign-in providers" form (console/src/sign-in-settings.ts):
// the settings as fields and back — each setting whole when one of its fields
// changed, nothing otherwise, in the shape the server's validation accepts —
// and the credentials it sets, a secret only when one was typed.

const REQUESTER = 'clabcdefghijklmnopqrstuvw'
const settings = {
  logo_url: 'https://example.com/logo.png',
  oauth: { return_provider_tokens: true },
  custom_auth: {
    jwks_url: 'https://auth.example.com/jwks.json',
    issuer: 'https://auth.example.com',
    audience: 'latchkey',
  },
  cross_app: {
    enabled: true,
    read_only: true,
    allowed_requester_app_ids: [REQUESTER],
    custom_api_url: 'https://wallet.example.com/cross-app',
  },
  telegram_auth_config: { bot_id: '7654321', bot_name: 'example_bot', link_enabled: false },
}
const credentials: SignInCredential[] = [
  { provider: 'google', client_id: 'client-1.apps.example' },
  { provider: 'telegram', bot_name: 'example_bot' },
]
const fields = () => signInFieldsOf(settings, credentials)
const with_ = (change: Partial<SignInFields>): SignInFields => ({ ...fields(), ...change })

it('reads the settings and the stored credentials into fields, secrets empty', () => {
  const f = fields()
  expect(f.oauth.google).toEqual({ clientId: 'client-1.apps.example', clientSecret: '' })
  expect(f.oauth.github).toEqual({ clientId: '', clientSecret: '' })
  expect(f).toMatchObject({
    returnProviderTokens: true,
    customKey: 'jwks',
    jwksUrl: 'https://auth.example.com/jwks.json',
    subjectClaim: '',
    crossAppEnabled: true,
    crossAppReadOnly: true,
    crossAppRequesters: REQUESTER,
    telegramBotId: '7654321',
    telegramBotName: 'example_bot',
    telegramBotToken: '',
    telegramLink: false,
    telegramSeamless: false,
  })
})

it('sends nothing when nothing changed, or a field was typed back as it was', () => {
  expect(signInPatchOf(fields(), settings, credentials)).toEqual({})
  expect(credentialChangesOf(fields(), credentials)).toEqual([])
  expect(
    signInPatchOf(with_({ issuer: ' https://auth.example.com ' }), settings, credentials),
  ).toEqual({})
})

it('sends each changed setting whole, in the shape the server accepts', () => {
  const patch = signInPatchOf(
    with_({
      returnProviderTokens: false,
      customKey: 'pem',
      publicKeyPem: '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----',
      subjectClaim: 'user_id',
      crossAppReadOnly: false,
      crossAppRequesters: `${REQUESTER}, clzzzzzzzzzzzzzzzzzzzzzzz\n`,
      telegramSeamless: true,
    }),
    settings,
    credentials,
  )
  expect(patch).toEqual({
    oauth: { return_provider_tokens: false },
    custom_auth: {
      public_key_pem: '-----BEGIN PUBLIC KEY-----\nMFkw\n-----END PUBLIC KEY-----',
      issuer: 'https://auth.example.com',
      audience: 'latchkey',
      subject_claim: 'user_id',
    },
    cross_app: {
      enabled: true,
      read_only: false,
      custom_api_url: 'https://wallet.example.com/cross-app',
      allowed_requester_app_ids: [REQUESTER, 'clzzzzzzzzzzzzzzzzzzzzzzz'],
    },
    telegram_auth_config: {
      bot_id: '7654321',
      bot_name: 'example_bot',
      link_enabled: false,
      seamless_auth_enabled: true,
    },
  })
  expect(() => assertCustomAuthSettings(patch.custom_auth)).not.toThrow()
  expect(() => assertCrossAppSettings(patch.cross_app)).not.toThrow()
  expect(() => assertTelegramAuthSettings(patch.telegram_auth_config)).not.toThrow()
})

it('removes a setting whose fields were emptied', () => {
  const patch = signInPatchOf(
    with_({
      jwksUrl: '',
      issuer: '',
      audience: '',
      crossAppEnabled: false,
      crossAppReadOnly: false,
      crossAppRequesters: '',
      crossAppUrl: '',
      telegramBotId: '',
      telegramBotName: '',
    }),
    settings,
    [],
  )
  expect(patch).toEqual({ custom_auth: null, cross_app: null, telegram_auth_config: null })
})

it('sets an OAuth client when its id changed or a secret was typed; no secret keeps the stored one', () => {
  const f = fields()
  f.oauth.google = { clientId: 'client-2.apps.example', clientSecret: '' }
  f.oauth.github = { clientId: ' Iv1.abc ', clientSecret: ' gh-secret ' }
  const changes = credentialChangesOf(f, credentials)
  expect(changes).toEqual([
    { provider: 'google', client_id: 'client-2.apps.example' },
    { provider: 'github', client_id: 'Iv1.abc', client_secret: 'gh-secret' },
  ])
  expect(providerCredentialsSchema.safeParse(changes[1]).success).toBe(true)
})

it('a bot token sets the bot and fills an empty bot id', () => {
  const token = '1234567:AAH-telegram-secret-token-0123456789'
  expect(botIdOf(token)).toBe('1234567')
  expect(botIdOf('no colon')).toBe('')
  const f = { ...signInFieldsOf({}, []), telegramBotName: 'new_bot', telegramBotToken: token }
  expect(credentialChangesOf(f, [])).toEqual([
    { provider: 'telegram', bot_name: 'new_bot', bot_token: token },
  ])
  expect(signInPatchOf(f, {}, [])).toEqual({
    telegram_auth_config: {
      bot_id: '1234567',
      bot_name: 'new_bot',
      link_enabled: true,
      seamless_auth_enabled: false,
    },
  })
  // A stored bot renamed without a new token: the username only (the server keeps the token).
  expect(credentialChangesOf(with_({ telegramBotName: 'renamed_bot' }), credentials)).toEqual([
    { provider: 'telegram', bot_name: 'renamed_bot' },
  ])
})

it('reads requester ids from lines or commas', () => {
  expect(idsOf(' a, b\n\nc ')).toEqual(['a', 'b', 'c'])
  expect(idsOf('')).toEqual([])
})
