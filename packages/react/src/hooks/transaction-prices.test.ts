import {
  createLatchkeyClient,
  createMemoryStorage,
  type EmbeddedWalletAccount,
} from '@latchkey/core'
import { anvil, mainnet, polygon, sepolia } from 'viem/chains'
import { describe, expect, it, vi } from 'vitest'
import type { LatchkeyInstance } from '../store.ts'
import { API_URL, APP_ID } from '../test/fake-server.ts'
import { ethereumTransactionRequest } from './ethereum-transactions.ts'
import { solanaTransactionRequest } from './solana-transactions.ts'

// Spec 03 §7 "Prices and tokens": the confirm screens ask the Latchkey server
// for the native currency's price (chain 0 with SOL for Solana), and only
// where the coins are worth something.

function instanceAnswering(usd: number) {
  const fetch = vi.fn(async () => Response.json({ usd }))
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: API_URL,
    storage: createMemoryStorage(),
    fetch: fetch as typeof globalThis.fetch,
    cookies: { get: () => null, set() {}, remove() {} },
  })
  const instance = {
    client,
    getUiState: () => ({ hostConfig: {} }),
  } as unknown as LatchkeyInstance
  const asked = () => fetch.mock.calls.map((call) => String((call as unknown[])[0]))
  return { instance, asked }
}

const wallet = (chainType: 'ethereum' | 'solana') =>
  ({
    address: 'wallet',
    entropyId: 'entropy-1',
    chainType,
    walletIndex: 0,
  }) as EmbeddedWalletAccount
const options = { requests: [{}], mode: 'send' as const, uiOptions: {} }

describe('the USD price a confirm screen shows', () => {
  it("asks for the Ethereum chain's own native currency by chain id and symbol", async () => {
    for (const [chain, usd] of [
      [mainnet, 3012.5],
      [polygon, 0.25],
    ] as const) {
      const { instance, asked } = instanceAnswering(usd)
      const request = ethereumTransactionRequest(instance, wallet('ethereum'), {
        ...options,
        chain,
      })
      expect(await request.usdPrice?.()).toBe(usd)
      expect(asked()).toEqual([
        `${API_URL}/api/v1/token_price?chainId=${chain.id}&tokenSymbol=${chain.nativeCurrency.symbol}`,
      ])
    }
  })

  it('asks for SOL as chain 0 on mainnet-beta', async () => {
    const { instance, asked } = instanceAnswering(142.25)
    const request = solanaTransactionRequest(instance, wallet('solana'), {
      cluster: { name: 'mainnet-beta', rpcUrl: 'https://api.mainnet-beta.solana.com' },
      transaction: new Uint8Array([1]),
      mode: 'send',
      uiOptions: {},
    })
    expect(await request.usdPrice?.()).toBe(142.25)
    expect(asked()).toEqual([`${API_URL}/api/v1/token_price?chainId=0&tokenSymbol=SOL`])
  })

  it('has no price on test and local networks: their coins are worth nothing', () => {
    const { instance } = instanceAnswering(1)
    for (const chain of [sepolia, anvil])
      expect(
        ethereumTransactionRequest(instance, wallet('ethereum'), { ...options, chain }).usdPrice,
      ).toBeUndefined()
    for (const name of ['devnet', 'testnet', 'localnet'])
      expect(
        solanaTransactionRequest(instance, wallet('solana'), {
          cluster: { name, rpcUrl: 'http://127.0.0.1:8899' },
          transaction: new Uint8Array([1]),
          mode: 'send',
          uiOptions: {},
        }).usdPrice,
      ).toBeUndefined()
  })
})
