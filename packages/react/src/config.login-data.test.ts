import { describe, expect, it } from 'vitest'
import { resolveConfig, resolveLoginConfig } from './config.ts'
import { appConfig } from './test/fake-server.ts'

// Spec 01 §3 "Login data: … loginMethods" and §4 "Login intent: …
// connect-or-create": what one login() call changes in the configuration.
describe('resolveLoginConfig', () => {
  const host = {
    loginMethodsAndOrder: { primary: ['email' as const, 'google' as const] },
  }

  it('is the resolved configuration when the call asks for nothing', () => {
    expect(resolveLoginConfig(host, appConfig(), {})).toEqual(resolveConfig(host, appConfig()))
  })

  it("login({ loginMethods }) replaces the app's methods and order for that login", () => {
    const config = resolveLoginConfig(host, appConfig(), { loginMethods: ['sms', 'wallet'] })
    expect(config.loginMethods).toEqual(['sms', 'wallet'])
    expect(config.loginMethodsAndOrder).toBeNull()
  })

  it("connect-or-create: wallets first, and an embedded wallet after any login but a wallet's", () => {
    const options = { intent: 'connect-or-create' as const }
    const email = resolveLoginConfig({ loginMethods: ['email', 'wallet'] }, null, options, 'email')
    expect(email.loginGroupPriority).toBe('web3-first')
    expect(email.createOnLogin).toEqual({ ethereum: 'users-without-wallets', solana: 'off' })

    const wallet = resolveLoginConfig(
      { loginMethods: ['email', 'wallet'] },
      null,
      options,
      'wallet',
    )
    expect(wallet.createOnLogin).toEqual({ ethereum: 'off', solana: 'off' })
  })

  it('connect-or-create keeps a stronger createOnLogin, and creates on Solana for Solana-only apps', () => {
    const options = { intent: 'connect-or-create' as const }
    const all = resolveLoginConfig(
      { embeddedWallets: { createOnLogin: { ethereum: 'all-users' } } },
      null,
      options,
      'email',
    )
    expect(all.createOnLogin.ethereum).toBe('all-users')
    const solana = resolveLoginConfig(
      { appearance: { walletChainType: 'solana-only' } },
      null,
      options,
      'google',
    )
    expect(solana.createOnLogin).toEqual({ ethereum: 'off', solana: 'users-without-wallets' })
  })
})
