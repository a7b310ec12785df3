import type { EmbeddedWalletAccount } from '@latchkey/core'
import type {
  PreparedEthereumTransaction,
  TransactionScanResult,
} from '@latchkey/core/transactions'
import { defineChain } from 'viem'
import { describe, expect, it, vi } from 'vitest'
import type { LatchkeyInstance } from '../store.ts'
import type { EthereumTransactionRequest } from '../transaction-requests.ts'
import {
  appChains,
  ethereumTransactionRequest,
  explorerTxUrl,
  requestEthereumTransaction,
} from './ethereum-transactions.ts'

const chain = defineChain({
  id: 31337,
  name: 'Anvil',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:1'] } },
})
const wallet = {
  address: '0x1111111111111111111111111111111111111111',
  entropyId: '0x1111111111111111111111111111111111111111',
  chainType: 'ethereum',
  walletIndex: 0,
} as EmbeddedWalletAccount
const prepared = {
  chain,
  from: wallet.address,
  request: { chainId: 31337, type: 'eip1559', to: null, value: 0n, nonce: 0, gas: 21000n },
  estimatedFee: 1n,
  balance: 0n,
  hasFunds: false,
} as unknown as PreparedEthereumTransaction

function instanceWith(transactions: object): LatchkeyInstance {
  return {
    client: {},
    getUiState: () => ({ hostConfig: { transactions } }),
    openWalletScreen: vi.fn(),
  } as unknown as LatchkeyInstance
}

const requestWith = (transactions: object) =>
  ethereumTransactionRequest(instanceWith(transactions), wallet, {
    chain,
    requests: [{ to: null }],
    mode: 'send',
    uiOptions: {},
  })

const diff = { asset: { type: 'NATIVE' as const }, in: [], out: [{ value: 1n }] }
const scanned = (result: TransactionScanResult) =>
  requestWith({ scan: async () => result }).scan(prepared)

describe("the app's scan function (spec 03 §5)", () => {
  it('a scan that moves assets is completed; one that moves nothing is "No tokens found"', async () => {
    const ok: TransactionScanResult = {
      simulation: { status: 'Success', assets_diffs: [diff], exposures: [] },
    }
    expect(await scanned(ok)).toMatchObject({ status: 'completed', source: 'app' })
    const nothing: TransactionScanResult = {
      simulation: { status: 'Success', assets_diffs: [], exposures: [] },
    }
    expect(await scanned(nothing)).toEqual({
      status: 'failed',
      source: 'app',
      message: 'No tokens found',
    })
  })

  it('a failed simulation is "Simulation failed", but a Malicious or Warning verdict is always shown', async () => {
    const failed = {
      simulation: { status: 'Error', assets_diffs: [], exposures: [] },
    } satisfies TransactionScanResult
    expect(await scanned(failed)).toEqual({
      status: 'failed',
      source: 'app',
      message: 'Simulation failed',
    })
    for (const result_type of ['Malicious', 'Warning'] as const)
      expect(
        await scanned({
          validation: { status: 'Success', result_type },
          simulation: failed.simulation,
        }),
      ).toMatchObject({ status: 'completed', result: { validation: { result_type } } })
  })

  it('a scan function that throws is "Transaction scan failed"; it is given the request it judges', async () => {
    const scan = vi.fn(async () => {
      throw new Error('scanner down')
    })
    expect(await requestWith({ scan }).scan(prepared)).toEqual({
      status: 'failed',
      source: 'app',
      message: 'Transaction scan failed',
    })
    expect(scan).toHaveBeenCalledWith(
      expect.objectContaining({
        chain_id: 31337,
        account_address: wallet.address,
        request: {
          method: 'eth_sendTransaction',
          params: [expect.objectContaining({ from: wallet.address, nonce: 0 })],
        },
      }),
    )
  })

  it('simulation off, no scanner: the screen says so instead of simulating', async () => {
    expect(await requestWith({ simulation: false }).scan(prepared)).toEqual({
      status: 'unsupported',
      reason: 'Simulation is turned off for this app.',
    })
  })
})

describe('without the confirm screen (showWalletUIs: false)', () => {
  it('refuses a wallet without the funds before anything is signed (INSUFFICIENT_BALANCE)', async () => {
    const submit = vi.fn()
    const request = {
      ...requestWith({}),
      uiOptions: { showWalletUIs: false },
      prepare: async () => prepared,
      submit,
    } as EthereumTransactionRequest
    await expect(requestEthereumTransaction(instanceWith({}), request)).rejects.toMatchObject({
      code: 'INSUFFICIENT_BALANCE',
      message: `Wallet ${wallet.address} does not have enough funds.`,
    })
    expect(submit).not.toHaveBeenCalled()
  })

  it('runs every step in order and answers each result', async () => {
    const submit = vi.fn(async () => ({ hash: '0xabc' as const }))
    const request = {
      ...requestWith({}),
      requests: [{ to: null }, { to: null }],
      uiOptions: { showWalletUIs: false },
      prepare: async () => ({ ...prepared, hasFunds: true }),
      submit,
    } as EthereumTransactionRequest
    expect(await requestEthereumTransaction(instanceWith({}), request)).toEqual([
      { hash: '0xabc' },
      { hash: '0xabc' },
    ])
  })
})

describe('chains', () => {
  it('defaults to mainnet; the default chain is the first unless named; explorers link a hash', () => {
    expect(appChains({}).defaultChain.id).toBe(1)
    expect(appChains({ chains: [chain] }).defaultChain).toBe(chain)
    expect(explorerTxUrl(appChains({}).defaultChain, '0xab')).toBe('https://etherscan.io/tx/0xab')
    expect(explorerTxUrl(chain, '0xab')).toBeNull()
  })
})
