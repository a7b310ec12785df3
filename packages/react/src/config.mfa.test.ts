import { describe, expect, it } from 'vitest'
import { resolveConfig } from './config.ts'
import { appConfig } from './test/fake-server.ts'

// Issue 18 (docs/mfa.md): the methods users may enroll are the app's
// `mfa_methods`; the prompt and the passkey removal are host switches.
describe('MFA configuration', () => {
  it("offers the app's methods in the chooser's order, none before the config loads", () => {
    expect(
      resolveConfig({}, appConfig({ mfa_methods: ['passkey', 'sms', 'totp'] })).mfaMethods,
    ).toEqual(['totp', 'sms', 'passkey'])
    expect(resolveConfig({}, appConfig({ mfa_methods: [] })).mfaMethods).toEqual([])
    expect(resolveConfig({}, null).mfaMethods).toEqual([])
  })

  it('prompts unless the host sets noPromptOnMfaRequired', () => {
    expect(resolveConfig({}, appConfig()).mfaPrompts).toBe(true)
    expect(resolveConfig({ mfa: { noPromptOnMfaRequired: true } }, appConfig()).mfaPrompts).toBe(
      false,
    )
  })

  it('keeps a passkey as a login when it leaves MFA unless shouldUnlinkOnUnenrollMfa', () => {
    expect(resolveConfig({}, appConfig()).unlinkPasskeyOnMfaRemoval).toBe(false)
    expect(
      resolveConfig({ passkeys: { shouldUnlinkOnUnenrollMfa: true } }, appConfig())
        .unlinkPasskeyOnMfaRemoval,
    ).toBe(true)
  })
})
