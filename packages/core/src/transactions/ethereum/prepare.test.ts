// @vitest-environment node
import {
  ANVIL_DEV_KEY,
  type AnvilNode,
  deployTestTokens,
  startAnvil,
  type TestTokens,
} from '@latchkey/server/test/chains'
import {
  type Chain,
  createPublicClient,
  custom,
  encodeFunctionData,
  http,
  type PublicClient,
  parseEther,
  parseGwei,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LatchkeyError } from '../../errors.ts'
import { prepareEthereumTransaction } from './prepare.ts'
import type { EthereumTransactionInput } from './types.ts'

let anvil: AnvilNode
let client: PublicClient
let tokens: TestTokens
const chain: Chain = foundry
const wallet = privateKeyToAccount(ANVIL_DEV_KEY)
const empty = privateKeyToAccount(generatePrivateKey())
const recipient = privateKeyToAccount(generatePrivateKey()).address

beforeAll(async () => {
  anvil = await startAnvil({ chainId: foundry.id })
  client = createPublicClient({ chain, transport: http(anvil.rpcUrl) })
  tokens = await deployTestTokens(anvil.rpcUrl, { mintTo: wallet.address })
})
afterAll(() => anvil?.stop())

const prepare = (input: EthereumTransactionInput, from = wallet.address, on = client) =>
  prepareEthereumTransaction({ client: on, chain, from, input })

async function rejection(promise: Promise<unknown>): Promise<LatchkeyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof LatchkeyError)) throw new Error(`expected a LatchkeyError, got ${error}`)
  return error
}

/** A client for a node that answers like another implementation for some requests. */
function clientWith(
  answer: (
    method: string,
    params: unknown[],
  ) => { error: { code: number; message: string } } | undefined,
): PublicClient {
  const node = http(anvil.rpcUrl)({ chain })
  return createPublicClient({
    chain,
    transport: custom({
      async request({ method, params }) {
        const override = answer(method, params as unknown[])
        if (override) throw override.error
        return node.request({ method, params })
      },
    }),
  })
}

describe('prepareEthereumTransaction', () => {
  it('fills nonce, gas and EIP-1559 fees for an ETH send, and checks funds', async () => {
    const value = parseEther('1')
    const [prepared, nonce, balance] = await Promise.all([
      prepare({ to: recipient, value }),
      client.getTransactionCount({ address: wallet.address, blockTag: 'pending' }),
      client.getBalance({ address: wallet.address }),
    ])
    const { request } = prepared
    expect(request).toMatchObject({
      chainId: foundry.id,
      type: 'eip1559',
      to: recipient,
      value,
      nonce,
      gas: 21_000n,
    })
    expect(request.data).toBeUndefined()
    expect(request.gasPrice).toBeUndefined()
    expect(request.maxFeePerGas).toBeGreaterThan(0n)
    expect(request.maxPriorityFeePerGas).toBeLessThanOrEqual(request.maxFeePerGas ?? 0n)
    expect(prepared.estimatedFee).toBe(21_000n * (request.maxFeePerGas ?? 0n))
    expect(prepared).toMatchObject({ from: wallet.address, balance, hasFunds: true, chain })
  })

  it('estimates a contract call from the sender', async () => {
    const data = encodeFunctionData({
      abi: tokens.erc20.abi,
      functionName: 'transfer',
      args: [recipient, 1_000_000n],
    })
    const { request } = await prepare({ to: tokens.erc20.address, data })
    expect(request.data).toBe(data)
    expect(request.gas).toBeGreaterThan(21_000n)
  })

  it('keeps a request with only a gasPrice legacy', async () => {
    const gasPrice = parseGwei('3')
    const prepared = await prepare({ to: recipient, value: 1n, gasPrice })
    expect(prepared.request).toMatchObject({ type: 'legacy', gasPrice })
    expect(prepared.request.maxFeePerGas).toBeUndefined()
    expect(prepared.request.maxPriorityFeePerGas).toBeUndefined()
    expect(prepared.estimatedFee).toBe(21_000n * gasPrice)
  })

  it('keeps given fees, nonce and gas, and fills the missing EIP-1559 one', async () => {
    const tip = parseGwei('2')
    const given = await prepare({
      to: recipient,
      nonce: 99,
      gas: 50_000n,
      maxPriorityFeePerGas: tip,
    })
    expect(given.request).toMatchObject({ nonce: 99, gas: 50_000n, maxPriorityFeePerGas: tip })
    expect(given.request.maxFeePerGas).toBeGreaterThan(tip)
    const cap = await prepare({ to: recipient, maxFeePerGas: 1n })
    expect(cap.request).toMatchObject({ maxFeePerGas: 1n, maxPriorityFeePerGas: 1n })
  })

  it('fails with TRANSACTION_PREPARE_FAILED when the call would revert', async () => {
    const data = encodeFunctionData({ abi: tokens.reverter.abi, functionName: 'poke' })
    const error = await rejection(prepare({ to: tokens.reverter.address, data }))
    expect(error.code).toBe('TRANSACTION_PREPARE_FAILED')
    expect(error.userMessage.title).toBe(
      'There was an error preparing your transaction. Your transaction request will likely fail.',
    )
    expect(error.details).toMatchObject({ reason: 'Reverter: always reverts' })
  })

  it('prepares with hasFunds false when the wallet cannot pay the value', async () => {
    const prepared = await prepare({ to: recipient, value: parseEther('1') }, empty.address)
    expect(prepared).toMatchObject({ balance: 0n, hasFunds: false })
    expect(prepared.request.gas).toBe(21_000n)
  })

  it('prepares with hasFunds false when the wallet cannot pay the fee', async () => {
    const data = encodeFunctionData({
      abi: tokens.erc20.abi,
      functionName: 'approve',
      args: [recipient, 5n],
    })
    const prepared = await prepare({ to: tokens.erc20.address, data }, empty.address)
    expect(prepared.hasFunds).toBe(false)
    expect(prepared.estimatedFee).toBeGreaterThan(0n)
  })

  it('asks again with the balance overridden when the node refuses to estimate for lack of funds', async () => {
    const refusing = clientWith((method, params) =>
      method === 'eth_estimateGas' && params.length < 3
        ? { error: { code: -32000, message: 'insufficient funds for transfer' } }
        : undefined,
    )
    const value = parseEther('1')
    const plain = await prepare({ to: recipient, value }, empty.address, refusing)
    expect(plain).toMatchObject({ hasFunds: false, request: { gas: 21_000n } })
    const data = encodeFunctionData({ abi: tokens.reverter.abi, functionName: 'poke' })
    const reverting = await rejection(
      prepare({ to: tokens.reverter.address, data, value }, empty.address, refusing),
    )
    expect(reverting.code).toBe('TRANSACTION_PREPARE_FAILED')
  })

  it('falls back to 21 000 gas for a send when the node also takes no state override', async () => {
    const strict = clientWith((method, params) => {
      if (method !== 'eth_estimateGas') return undefined
      return params.length < 3
        ? { error: { code: -32000, message: 'insufficient funds for transfer' } }
        : { error: { code: -32602, message: 'too many arguments, want at most 2' } }
    })
    const value = parseEther('1')
    const plain = await prepare({ to: recipient, value }, empty.address, strict)
    expect(plain).toMatchObject({ hasFunds: false, request: { gas: 21_000n } })
    const data = encodeFunctionData({ abi: tokens.reverter.abi, functionName: 'poke' })
    const call = await rejection(
      prepare({ to: tokens.reverter.address, data, value }, empty.address, strict),
    )
    expect(call.code).toBe('INSUFFICIENT_BALANCE')
  })

  it('refuses a request for another chain', async () => {
    const error = await rejection(prepare({ to: recipient, chainId: 1 }))
    expect(error.code).toBe('UNSUPPORTED_CHAIN')
  })

  it('fails with TRANSACTION_PREPARE_ERROR when the node cannot be reached', async () => {
    const down = createPublicClient({
      chain,
      transport: http('http://127.0.0.1:9', { retryCount: 0 }),
    })
    const error = await rejection(prepare({ to: recipient, value: 1n }, wallet.address, down))
    expect(error.code).toBe('TRANSACTION_PREPARE_ERROR')
  })
})
