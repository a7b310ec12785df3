import { describe, expect, it } from 'vitest'
import { resolveConfig } from './config.ts'
import { appConfig } from './test/fake-server.ts'

// Tracker issue 16, item 6: passkey sign-up is an app setting on the server
// (`passkeys_for_signup_enabled`), which the host's `loginConfig` overrides.
describe('passkey sign-up', () => {
  it('follows the app setting when the host says nothing', () => {
    expect(resolveConfig({}, appConfig()).passkeysForSignup).toBe(false)
    expect(
      resolveConfig({}, appConfig({ passkeys_for_signup_enabled: true })).passkeysForSignup,
    ).toBe(true)
  })

  it("lets the host's loginConfig win either way", () => {
    const on = appConfig({ passkeys_for_signup_enabled: true })
    expect(
      resolveConfig({ loginConfig: { passkeysForSignupEnabled: false } }, on).passkeysForSignup,
    ).toBe(false)
    expect(
      resolveConfig({ loginConfig: { passkeysForSignupEnabled: true } }, appConfig())
        .passkeysForSignup,
    ).toBe(true)
  })

  it('is off before the app configuration has loaded', () => {
    expect(resolveConfig({}, null).passkeysForSignup).toBe(false)
  })
})
