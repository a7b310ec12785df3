import { expect, it } from 'vitest'
import {
  defaultCloudRecoveryEndpoints,
  loadConfigFromEnv,
  resolveCloudRecoveryEndpoints,
} from './config.ts'
import { getTestInstance } from './test/instance.ts'

// The cloudRecovery option: real endpoints by default, overridable one by one
// (tests and local development point them at fakes), checked at start.

it('defaults to the real Google and CloudKit endpoints', () => {
  expect(resolveCloudRecoveryEndpoints()).toEqual({
    google: {
      authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'https://oauth2.googleapis.com/token',
      apiBaseUrl: 'https://www.googleapis.com',
    },
    icloud: { apiBaseUrl: 'https://api.apple-cloudkit.com' },
  })
  expect(resolveCloudRecoveryEndpoints()).toEqual(defaultCloudRecoveryEndpoints)
})

it('overrides endpoints one by one; API bases lose a trailing slash', () => {
  expect(
    resolveCloudRecoveryEndpoints({
      google: { tokenUrl: 'http://127.0.0.1:4001/token', apiBaseUrl: 'http://127.0.0.1:4001/' },
    }),
  ).toEqual({
    google: {
      authorizationUrl: 'https://accounts.google.com/o/oauth2/v2/auth',
      tokenUrl: 'http://127.0.0.1:4001/token',
      apiBaseUrl: 'http://127.0.0.1:4001',
    },
    icloud: { apiBaseUrl: 'https://api.apple-cloudkit.com' },
  })
})

it('refuses non-URLs, other schemes, credentials, queries; plain http in production except loopback', () => {
  for (const tokenUrl of [
    'not a url',
    'ftp://example.com/token',
    'https://user:pass@example.com/token',
    'https://example.com/token?x=1',
    'https://example.com/token#x',
  ])
    expect(() => resolveCloudRecoveryEndpoints({ google: { tokenUrl } })).toThrow(
      /cloudRecovery\.google\.tokenUrl/,
    )
  expect(() =>
    resolveCloudRecoveryEndpoints({ icloud: { apiBaseUrl: 'http://cloudkit.example' } }, true),
  ).toThrow('cloudRecovery.icloud.apiBaseUrl must be https in production')
  expect(
    resolveCloudRecoveryEndpoints({ icloud: { apiBaseUrl: 'http://127.0.0.1:9000' } }, true).icloud
      .apiBaseUrl,
  ).toBe('http://127.0.0.1:9000')
})

it('a server with a bad endpoint refuses to start', async () => {
  await expect(
    getTestInstance({ cloudRecovery: { google: { tokenUrl: 'javascript:alert(1)' } } }),
  ).rejects.toThrow(/cloudRecovery\.google\.tokenUrl/)
})

it('reads the endpoints from the environment', () => {
  const config = loadConfigFromEnv({
    LATCHKEY_GOOGLE_AUTHORIZATION_URL: 'http://127.0.0.1:1/auth',
    LATCHKEY_GOOGLE_TOKEN_URL: 'http://127.0.0.1:1/token',
    LATCHKEY_GOOGLE_API_BASE_URL: 'http://127.0.0.1:1',
    LATCHKEY_CLOUDKIT_API_BASE_URL: 'http://127.0.0.1:2',
  })
  expect(config.cloudRecovery).toEqual({
    google: {
      authorizationUrl: 'http://127.0.0.1:1/auth',
      tokenUrl: 'http://127.0.0.1:1/token',
      apiBaseUrl: 'http://127.0.0.1:1',
    },
    icloud: { apiBaseUrl: 'http://127.0.0.1:2' },
  })
  expect(loadConfigFromEnv({}).cloudRecovery).toEqual({ google: {}, icloud: {} })
})
