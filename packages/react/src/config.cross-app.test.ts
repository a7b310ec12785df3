import { describe, expect, it } from 'vitest'
import { resolveConfig } from './config.ts'
import { appConfig } from './test/fake-server.ts'

// Spec 01 §1: cross-app login entries are `latchkey:{appId}` login methods
// (`privy:{appId}` in the spec's product); docs/cross-app.md.
describe('latchkey:{appId} login methods', () => {
  it('become cross-app providers, in order and once each, beside the other methods', () => {
    const config = resolveConfig(
      {
        loginMethods: [
          'latchkey:provideraaaaaaaaaaaaaaaaa',
          'email',
          'latchkey:provideraaaaaaaaaaaaaaaaa',
          'latchkey:otherbbbbbbbbbbbbbbbbbbbb',
        ],
      },
      appConfig(),
    )
    expect(config.loginMethods).toEqual(['email'])
    expect(config.crossAppProviders).toEqual([
      'provideraaaaaaaaaaaaaaaaa',
      'otherbbbbbbbbbbbbbbbbbbbb',
    ])
  })

  it('the server’s methods alone name no provider', () => {
    expect(resolveConfig({}, appConfig()).crossAppProviders).toEqual([])
  })
})
