import { describe, expect, it } from 'vitest'
import { loadConfigFromEnv } from '../config.ts'
import { defaultFundingOptions, fundingOptionsFromEnv, resolveFundingOptions } from './options.ts'

// The server's funding options (docs/funding.md "Server options").
describe('resolveFundingOptions', () => {
  it('defaults to the real services', () => {
    expect(resolveFundingOptions()).toEqual(defaultFundingOptions)
  })

  it('takes overrides, drops a trailing slash, and turns bridging off with null', () => {
    const resolved = resolveFundingOptions({
      coinbase: { apiUrl: 'http://127.0.0.1:4010/' },
      solanaRpcUrls: { devnet: 'http://127.0.0.1:8899' },
      bridge: null,
    })
    expect(resolved.coinbase.apiUrl).toBe('http://127.0.0.1:4010')
    expect(resolved.coinbase.payUrl).toBe('https://pay.coinbase.com')
    expect(resolved.solanaRpcUrls.devnet).toBe('http://127.0.0.1:8899')
    expect(resolved.solanaRpcUrls['mainnet-beta']).toBe('https://api.mainnet-beta.solana.com')
    expect(resolved.bridge).toBeNull()
  })

  it('refuses URLs that are not plain http(s), and http off loopback in production', () => {
    expect(() => resolveFundingOptions({ moonpay: { apiUrl: 'ftp://x.example' } })).toThrow(
      /moonpay.apiUrl must be an http\(s\) URL/,
    )
    expect(() => resolveFundingOptions({ coinbase: { apiUrl: 'https://u:p@x.example' } })).toThrow(
      /no credentials/,
    )
    expect(() => resolveFundingOptions({ coinbase: { apiUrl: 'nope' } })).toThrow(/not a URL/)
    expect(() =>
      resolveFundingOptions({ coinbase: { apiUrl: 'http://cb.example' } }, true),
    ).toThrow(/https in production/)
    expect(
      resolveFundingOptions({ coinbase: { apiUrl: 'http://127.0.0.1:1' } }, true).coinbase.apiUrl,
    ).toBe('http://127.0.0.1:1')
    expect(() => resolveFundingOptions({ coinbase: { timeoutMs: 0 } })).toThrow(/positive/)
  })
})

describe('from the environment', () => {
  it('reads the LATCHKEY_* funding variables', () => {
    const options = fundingOptionsFromEnv({
      LATCHKEY_MOONPAY_API_URL: 'http://127.0.0.1:1',
      LATCHKEY_COINBASE_API_URL: 'http://127.0.0.1:2',
      LATCHKEY_BRIDGE_API_URL: 'http://127.0.0.1:3',
      LATCHKEY_SOLANA_RPC_URLS: 'devnet=http://127.0.0.1:8899, mainnet-beta=https://rpc.example',
    })
    expect(options).toEqual({
      moonpay: { apiUrl: 'http://127.0.0.1:1' },
      coinbase: { apiUrl: 'http://127.0.0.1:2' },
      bridge: { apiUrl: 'http://127.0.0.1:3' },
      solanaRpcUrls: { devnet: 'http://127.0.0.1:8899', 'mainnet-beta': 'https://rpc.example' },
    })
    expect(loadConfigFromEnv({ LATCHKEY_BRIDGE_API_URL: 'off' }).funding?.bridge).toBeNull()
  })

  it('refuses a malformed LATCHKEY_SOLANA_RPC_URLS entry', () => {
    expect(() =>
      fundingOptionsFromEnv({ LATCHKEY_SOLANA_RPC_URLS: 'localnet=http://127.0.0.1:8899' }),
    ).toThrow(/mainnet-beta\|devnet\|testnet/)
  })
})
