import { describe, expect, it } from 'vitest'
import { defaultFarcasterOptions, loadConfigFromEnv, parseChainRpcUrls } from './config.ts'

describe('chain RPC and Farcaster settings from the environment', () => {
  it('reads LATCHKEY_RPC_URLS as chain id = URL pairs', () => {
    expect(parseChainRpcUrls('1=https://eth.example, 8453=http://127.0.0.1:8545')).toEqual({
      1: 'https://eth.example',
      8453: 'http://127.0.0.1:8545',
    })
    expect(parseChainRpcUrls(undefined)).toBeUndefined()
  })

  it('refuses a malformed entry instead of ignoring it', () => {
    for (const bad of [
      'https://eth.example',
      '0=https://x',
      'x=https://x',
      '1=ftp://x',
      '1.5=https://x',
    ])
      expect(() => parseChainRpcUrls(bad)).toThrow(/LATCHKEY_RPC_URLS/)
  })

  it('passes Farcaster overrides through and leaves the rest to the defaults', () => {
    const config = loadConfigFromEnv({
      LATCHKEY_RPC_URLS: '31337=http://127.0.0.1:8545',
      LATCHKEY_OPTIMISM_RPC_URL: 'http://127.0.0.1:9545',
    })
    expect(config.chainRpcUrls).toEqual({ 31337: 'http://127.0.0.1:8545' })
    expect(config.farcaster).toEqual({ optimismRpcUrl: 'http://127.0.0.1:9545' })
    expect(defaultFarcasterOptions.relayUrl).toBe('https://relay.farcaster.xyz')
  })
})
