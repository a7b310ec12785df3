// @vitest-environment node
import {
  ANVIL_DEV_KEY,
  type AnvilNode,
  deployTestTokens,
  startAnvil,
  type TestTokens,
} from '@latchkey/server/test/chains'
import {
  createPublicClient,
  encodeFunctionData,
  type Hex,
  http,
  type PublicClient,
  parseEther,
  parseGwei,
  type TransactionSerializable,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LatchkeyError } from '../../errors.ts'
import { prepareEthereumTransaction } from './prepare.ts'
import { type EthereumTransactionToSign, sendPreparedEthereumTransaction } from './send.ts'
import { readTokenInfo } from './token-info.ts'
import type { EthereumTransactionInput } from './types.ts'

let anvil: AnvilNode
let client: PublicClient
let tokens: TestTokens
const wallet = privateKeyToAccount(ANVIL_DEV_KEY)
const recipient = privateKeyToAccount(generatePrivateKey()).address

beforeAll(async () => {
  anvil = await startAnvil({ chainId: foundry.id })
  client = createPublicClient({
    chain: foundry,
    transport: http(anvil.rpcUrl),
    pollingInterval: 50,
  })
  tokens = await deployTestTokens(anvil.rpcUrl, { mintTo: wallet.address })
})
afterAll(() => anvil?.stop())

/** Stands in for the enclave: signs with the dev key. */
const sign = ({ from: _, ...request }: EthereumTransactionToSign): Promise<Hex> =>
  wallet.signTransaction(request as TransactionSerializable)

async function send(input: EthereumTransactionInput, signer = sign) {
  const prepared = await prepareEthereumTransaction({
    client,
    chain: foundry,
    from: wallet.address,
    input,
  })
  return sendPreparedEthereumTransaction({ client, prepared, sign: signer })
}

async function rejection(promise: Promise<unknown>): Promise<LatchkeyError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  if (!(error instanceof LatchkeyError)) throw new Error(`expected a LatchkeyError, got ${error}`)
  return error
}

const erc20 = (functionName: 'transfer' | 'approve', amount: bigint) =>
  encodeFunctionData({ abi: tokens.erc20.abi, functionName, args: [recipient, amount] })

describe('sendPreparedEthereumTransaction', () => {
  it('sends ETH and answers the receipt', async () => {
    const value = parseEther('0.5')
    const before = await client.getBalance({ address: recipient })
    const { hash, receipt } = await send({ to: recipient, value })
    expect(receipt).toMatchObject({ status: 'success', transactionHash: hash, type: 'eip1559' })
    expect(await client.getBalance({ address: recipient })).toBe(before + value)
  })

  it('sends an ERC-20 transfer', async () => {
    const { receipt } = await send({
      to: tokens.erc20.address,
      data: erc20('transfer', 2_500_000n),
    })
    expect(receipt.status).toBe('success')
    const balance = await client.readContract({
      ...tokens.erc20,
      functionName: 'balanceOf',
      args: [recipient],
    })
    expect(balance).toBe(2_500_000n)
  })

  it('sends an ERC-20 approval, and the token reads as TUSD with 6 decimals', async () => {
    const { receipt } = await send({ to: tokens.erc20.address, data: erc20('approve', 7_000_000n) })
    expect(receipt.status).toBe('success')
    const allowance = await client.readContract({
      ...tokens.erc20,
      functionName: 'allowance',
      args: [wallet.address, recipient],
    })
    expect(allowance).toBe(7_000_000n)
    expect(await readTokenInfo(client, tokens.erc20.address)).toMatchObject({
      symbol: 'TUSD',
      decimals: 6,
    })
  })

  it('sends a legacy transaction as legacy', async () => {
    const gasPrice = parseGwei('5')
    const { receipt } = await send({ to: recipient, value: 1n, gasPrice })
    expect(receipt).toMatchObject({
      status: 'success',
      type: 'legacy',
      effectiveGasPrice: gasPrice,
    })
  })

  it('fails with TRANSACTION_REVERTED, carrying the hash, when the receipt says reverted', async () => {
    // A set gas limit skips estimation, which would have caught the revert.
    const data = encodeFunctionData({ abi: tokens.reverter.abi, functionName: 'poke' })
    const error = await rejection(send({ to: tokens.reverter.address, data, gas: 100_000n }))
    expect(error.code).toBe('TRANSACTION_REVERTED')
    expect(error.userMessage.title).toBe('Transaction failed')
    const { hash } = error.details as { hash: Hex }
    expect((await client.getTransactionReceipt({ hash })).status).toBe('reverted')
  })

  it("fails with TRANSACTION_FAILURE and the node's message when the node refuses it", async () => {
    const error = await rejection(send({ to: recipient, value: 1n, nonce: 0 }))
    expect(error.code).toBe('TRANSACTION_FAILURE')
    expect((error.details as { message: string }).message).toMatch(/nonce/i)
    expect(error.details).not.toHaveProperty('hash')
  })

  it('fails with TRANSACTION_SIGN_FAILED when signing throws, and keeps a LatchkeyError as is', async () => {
    const broken = async (): Promise<Hex> => {
      throw new Error('enclave gone')
    }
    expect((await rejection(send({ to: recipient, value: 1n }, broken))).code).toBe(
      'TRANSACTION_SIGN_FAILED',
    )
    const rejected = async (): Promise<Hex> => {
      throw new LatchkeyError('UNABLE_TO_SIGN')
    }
    expect((await rejection(send({ to: recipient, value: 1n }, rejected))).code).toBe(
      'UNABLE_TO_SIGN',
    )
  })
})
