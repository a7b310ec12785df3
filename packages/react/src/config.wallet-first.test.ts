import { describe, expect, it } from 'vitest'
import { effectiveLoginMethods, resolveConfig } from './config.ts'
import { appConfig } from './test/fake-server.ts'

// Spec 01 §5: "Wallet-first login is forced off when wallet login is
// disabled and forced on when no email, SMS or social login is enabled."
describe('wallet-first login (loginGroupPriority)', () => {
  it('is forced off when wallet login is off', () => {
    const config = resolveConfig(
      { loginMethods: ['email', 'google'], appearance: { loginGroupPriority: 'web3-first' } },
      appConfig(),
    )
    expect(config.loginGroupPriority).toBe('web2-first')
  })

  it('is forced on when no email, SMS or social login is on', () => {
    expect(resolveConfig({ loginMethods: ['wallet', 'passkey'] }, null).loginGroupPriority).toBe(
      'web3-first',
    )
    expect(
      resolveConfig(
        { loginMethods: ['wallet'], appearance: { loginGroupPriority: 'web2-first' } },
        null,
      ).loginGroupPriority,
    ).toBe('web3-first')
  })

  it("follows the server's login switches when the host lists none", () => {
    const walletOnly = appConfig({
      login_methods: { ...appConfig().login_methods, email: false, sms: false, wallet: true },
    })
    const socials = Object.entries(walletOnly.login_methods).filter(
      ([name, on]) => on && name !== 'wallet' && name !== 'guest' && name !== 'passkey',
    )
    expect(socials).toEqual([])
    expect(resolveConfig({}, walletOnly).loginGroupPriority).toBe('web3-first')
  })

  it('is what the host asked for otherwise (default web2-first)', () => {
    const methods = { loginMethods: ['email' as const, 'wallet' as const] }
    expect(resolveConfig(methods, null).loginGroupPriority).toBe('web2-first')
    expect(
      resolveConfig({ ...methods, appearance: { loginGroupPriority: 'web3-first' } }, null)
        .loginGroupPriority,
    ).toBe('web3-first')
  })

  it('counts wallets listed in loginMethodsAndOrder as wallet login', () => {
    const host = { loginMethodsAndOrder: { primary: ['metamask', 'email'], overflow: ['rainbow'] } }
    expect(effectiveLoginMethods(host, null)).toEqual(['wallet', 'email'])
    expect(
      resolveConfig({ ...host, appearance: { loginGroupPriority: 'web3-first' as const } }, null)
        .loginGroupPriority,
    ).toBe('web3-first')
  })
})
