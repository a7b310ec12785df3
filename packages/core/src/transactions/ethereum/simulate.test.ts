// @vitest-environment node
import {
  ANVIL_DEV_KEY,
  type AnvilNode,
  deployTestTokens,
  startAnvil,
  type TestTokens,
} from '@latchkey/server/test/chains'
import {
  type Address,
  createPublicClient,
  custom,
  encodeFunctionData,
  http,
  maxUint256,
  type PublicClient,
  parseEther,
} from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { NO_TOKENS_FOUND, simulateEthereumTransaction } from './simulate.ts'
import type { EthereumTransactionInput, TransactionScanResult } from './types.ts'

let anvil: AnvilNode
let client: PublicClient
let tokens: TestTokens
const wallet = privateKeyToAccount(ANVIL_DEV_KEY).address
const other = privateKeyToAccount(generatePrivateKey()).address

beforeAll(async () => {
  anvil = await startAnvil({ chainId: foundry.id })
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) })
  tokens = await deployTestTokens(anvil.rpcUrl, { mintTo: wallet })
})
afterAll(() => anvil?.stop())

async function simulation(request: EthereumTransactionInput, from: Address = wallet) {
  const result = await simulateEthereumTransaction({ client, from, request })
  if ('unsupported' in result) throw new Error(`unsupported: ${result.reason}`)
  return result.simulation as NonNullable<TransactionScanResult['simulation']>
}

const call = (contract: keyof TestTokens, functionName: string, args: readonly unknown[]) => ({
  to: tokens[contract].address,
  data: encodeFunctionData({ abi: tokens[contract].abi, functionName, args } as never),
})

describe('simulateEthereumTransaction (eth_simulateV1)', () => {
  it('shows an ETH send as native value out', async () => {
    const value = parseEther('1.5')
    const result = await simulation({ to: other, value })
    expect(result).toEqual({
      status: 'Success',
      params: { from: wallet, to: other, value },
      assets_diffs: [
        {
          asset: { type: 'NATIVE', name: 'Ether', symbol: 'ETH', decimals: 18 },
          in: [],
          out: [{ value }],
        },
      ],
      exposures: [],
    })
  })

  it('shows an ERC-20 transfer as the token out, with its symbol and decimals', async () => {
    const request = call('erc20', 'transfer', [other, 3_000_000n])
    const result = await simulation(request)
    expect(result.status).toBe('Success')
    expect(result.params).toEqual({ from: wallet, to: request.to, value: 0n, data: request.data })
    expect(result.assets_diffs).toEqual([
      {
        asset: {
          type: 'ERC20',
          address: tokens.erc20.address,
          name: 'Test USD',
          symbol: 'TUSD',
          decimals: 6,
        },
        in: [],
        out: [{ value: 3_000_000n }],
      },
    ])
  })

  it('shows what comes in for the receiving side', async () => {
    // Anyone may mint the test token: `other` minting to itself receives it.
    const result = await simulation(call('erc20', 'mint', [other, 5n]), other)
    expect(result.assets_diffs).toEqual([expect.objectContaining({ in: [{ value: 5n }], out: [] })])
  })

  it('shows an ERC-721 transfer by token id', async () => {
    const result = await simulation(call('erc721', 'transferFrom', [wallet, other, 2n]))
    expect(result.assets_diffs).toEqual([
      {
        asset: { type: 'ERC721', address: tokens.erc721.address, name: 'Test NFT', symbol: 'TNFT' },
        in: [],
        out: [{ value: 1n, token_id: 2n }],
      },
    ])
  })

  it('shows an ERC-1155 batch transfer per token id', async () => {
    const result = await simulation(
      call('erc1155', 'safeBatchTransferFrom', [wallet, other, [1n, 2n], [4n, 5n], '0x']),
    )
    expect(result.assets_diffs).toEqual([
      {
        asset: { type: 'ERC1155', address: tokens.erc1155.address },
        in: [],
        out: [
          { value: 4n, token_id: 1n },
          { value: 5n, token_id: 2n },
        ],
      },
    ])
  })

  it("answers 'No tokens found' for an approval, with the spender among the exposures", async () => {
    const result = await simulation(call('erc20', 'approve', [other, maxUint256]))
    expect(result).toMatchObject({ status: 'Error', error: NO_TOKENS_FOUND, assets_diffs: [] })
    expect(result.exposures).toEqual([
      {
        asset: {
          type: 'ERC20',
          address: tokens.erc20.address,
          name: 'Test USD',
          symbol: 'TUSD',
          decimals: 6,
        },
        spenders: [{ address: other, value: maxUint256 }],
      },
    ])
  })

  it('names an ApprovalForAll exposure after the contract kind', async () => {
    const result = await simulation(call('erc1155', 'setApprovalForAll', [other, true]))
    expect(result.exposures).toEqual([
      {
        asset: { type: 'ERC1155', address: tokens.erc1155.address },
        spenders: [{ address: other, is_approved_for_all: true }],
      },
    ])
  })

  it('answers an Error with the revert reason for a call that reverts', async () => {
    const result = await simulation(call('reverter', 'poke', []))
    expect(result).toMatchObject({
      status: 'Error',
      error: 'Reverter: always reverts',
      assets_diffs: [],
    })
  })

  it('answers unsupported when the node has no eth_simulateV1', async () => {
    const node = http(anvil.rpcUrl)({ chain: foundry })
    const old = createPublicClient({
      chain: foundry,
      transport: custom({
        async request({ method, params }) {
          if (method === 'eth_simulateV1')
            throw {
              code: -32601,
              message: 'the method eth_simulateV1 does not exist/is not available',
            }
          return node.request({ method, params })
        },
      }),
    })
    const result = await simulateEthereumTransaction({
      client: old,
      from: wallet,
      request: { to: other, value: 1n },
    })
    expect(result).toMatchObject({
      unsupported: true,
      reason: expect.stringContaining('eth_simulateV1'),
    })
  })
})
