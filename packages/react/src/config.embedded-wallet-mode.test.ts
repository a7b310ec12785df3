import { describe, expect, it } from 'vitest'
import { resolveConfig } from './config.ts'
import { appConfig } from './test/fake-server.ts'

// Spec 02 §5: "requesting user-owned recovery in server-wallet-only mode is
// unsupported" — in that mode the modal offers no password or cloud backup.
const SERVER_ONLY = 'user-controlled-server-wallets-only' as const
const served = (mode: 'legacy-embedded-wallets-only' | typeof SERVER_ONLY) => {
  const config = appConfig()
  config.embedded_wallet_config = {
    ...config.embedded_wallet_config,
    mode,
    require_user_owned_recovery_on_create: true,
    user_owned_recovery_options: ['user-passcode', 'google-drive'],
  }
  return config
}

describe('embeddedWallets.mode', () => {
  it('the default mode offers what the app offers', () => {
    const config = resolveConfig({}, served('legacy-embedded-wallets-only'))
    expect(config.embeddedWalletMode).toBe('legacy-embedded-wallets-only')
    expect(config.userOwnedRecoveryOptions).toEqual(['user-passcode', 'google-drive'])
    expect(config.requireUserOwnedRecoveryOnCreate).toBe(true)
  })

  it("server-wallet-only mode, the server's or the host's: no user-owned recovery, none required", () => {
    for (const config of [
      resolveConfig({}, served(SERVER_ONLY)),
      resolveConfig(
        { embeddedWallets: { mode: SERVER_ONLY } },
        served('legacy-embedded-wallets-only'),
      ),
      resolveConfig(
        { embeddedWallets: { mode: SERVER_ONLY, requireUserOwnedRecoveryOnCreate: true } },
        null,
      ),
    ]) {
      expect(config.embeddedWalletMode).toBe(SERVER_ONLY)
      expect(config.userOwnedRecoveryOptions).toEqual([])
      expect(config.requireUserOwnedRecoveryOnCreate).toBe(false)
    }
  })

  it("the host cannot loosen the server's mode (the server would refuse anyway)", () => {
    const config = resolveConfig(
      { embeddedWallets: { mode: 'legacy-embedded-wallets-only' } },
      served(SERVER_ONLY),
    )
    expect(config.userOwnedRecoveryOptions).toEqual([])
  })
})
