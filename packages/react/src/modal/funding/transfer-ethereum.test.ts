// @vitest-environment node
import { LatchkeyError } from '@latchkey/core'
import type { ConnectedEthereumExternalWallet, EIP1193Provider } from '@latchkey/core/external'
import {
  type AnvilNode,
  deployTestTokens,
  startAnvil,
  type TestTokens,
} from '@latchkey/server/test/chains'
import { type Chain, createPublicClient, defineChain, erc20Abi, http, parseEther } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readBalance } from './operations.ts'
import { transferFromEthereumWallet } from './transfer-ethereum.ts'

// The transfer against a real node: Anvil's first dev account is the
// external wallet (Anvil signs its eth_sendTransaction, as a wallet would
// after the user's yes); the funded wallet is a fresh address.
const DEV_ACCOUNT = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
let anvil: AnvilNode
let chain: Chain
let tokens: TestTokens

beforeAll(async () => {
  anvil = await startAnvil()
  chain = defineChain({ ...foundry, rpcUrls: { default: { http: [anvil.rpcUrl] } } })
  tokens = await deployTestTokens(anvil.rpcUrl, { mintTo: DEV_ACCOUNT })
}, 60_000)
afterAll(() => anvil?.stop())

const fresh = () => privateKeyToAccount(generatePrivateKey()).address

/**
 * An injected wallet whose provider is the node itself, recording what it
 * is asked; `refuse` answers eth_sendTransaction as a user's no (4001).
 */
function anvilWallet(address: string, { refuse = false } = {}) {
  const asked: string[] = []
  const switched: number[] = []
  const provider = {
    async request({ method, params }: { method: string; params?: unknown }) {
      asked.push(method)
      if (refuse && method === 'eth_sendTransaction')
        throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
      const response = await fetch(anvil.rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }),
      })
      const answer = (await response.json()) as { result?: unknown; error?: { message: string } }
      if (answer.error) throw new Error(answer.error.message)
      return answer.result
    },
    on: () => undefined,
    removeListener: () => undefined,
  } as unknown as EIP1193Provider
  const wallet = {
    type: 'ethereum',
    address,
    chainId: `eip155:${foundry.id}`,
    connectedAt: 0,
    walletClientType: 'anvil',
    connectorType: 'injected',
    imported: false,
    meta: { name: 'Anvil', icon: null, id: 'anvil' },
    disconnect: async () => undefined,
    getEthereumProvider: () => provider,
    switchChain: async (id: number) => {
      switched.push(id)
    },
  } as ConnectedEthereumExternalWallet
  return { wallet, asked, switched }
}

const target = () => ({ chainType: 'ethereum', chain }) as const
const ETH = { symbol: 'ETH', decimals: 18 }

async function failure(promise: Promise<unknown>): Promise<LatchkeyError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  )
  if (!(error instanceof LatchkeyError)) throw new Error(`expected a LatchkeyError, got ${error}`)
  return error
}

describe('transferFromEthereumWallet (spec 03 "Transfer from wallet")', () => {
  it('sends ETH on the funding chain and waits for it to land', async () => {
    const to = fresh()
    const { wallet, switched } = anvilWallet(DEV_ACCOUNT)
    const submitted: string[] = []
    const hash = await transferFromEthereumWallet({
      chain,
      wallet,
      to,
      amount: '0.25',
      token: ETH,
      readBalance: (owner) => readBalance(target(), owner, ETH),
      onSubmitted: (h) => submitted.push(h),
    })
    expect(switched).toEqual([foundry.id])
    expect(submitted).toEqual([hash])
    expect(await readBalance(target(), to, ETH)).toBe(parseEther('0.25'))
    const receipt = await createPublicClient({ chain, transport: http() }).getTransactionReceipt({
      hash: hash as `0x${string}`,
    })
    expect(receipt.from.toLowerCase()).toBe(DEV_ACCOUNT.toLowerCase())
  })

  it("sends an ERC-20 with the token's transfer", async () => {
    const to = fresh()
    const tusd = { symbol: 'TUSD', decimals: 6, address: tokens.erc20.address }
    const { wallet } = anvilWallet(DEV_ACCOUNT)
    await transferFromEthereumWallet({
      chain,
      wallet,
      to,
      amount: '12.5',
      token: tusd,
      readBalance: (owner) => readBalance(target(), owner, tusd),
    })
    const client = createPublicClient({ chain, transport: http() })
    expect(
      await client.readContract({
        address: tokens.erc20.address,
        abi: erc20Abi,
        functionName: 'balanceOf',
        args: [to],
      }),
    ).toBe(12_500_000n)
    expect(await readBalance(target(), to, tusd)).toBe(12_500_000n)
  })

  it("refuses a wallet without the amount before asking it: 'Wallet {address} does not have enough funds.'", async () => {
    const empty = fresh()
    const { wallet, asked } = anvilWallet(empty)
    const error = await failure(
      transferFromEthereumWallet({
        chain,
        wallet,
        to: fresh(),
        amount: '1',
        token: ETH,
        readBalance: (owner) => readBalance(target(), owner, ETH),
      }),
    )
    expect(error.code).toBe('FUNDING_WALLET_INSUFFICIENT_FUNDS')
    expect(error.message).toBe(`Wallet ${empty} does not have enough funds.`)
    expect(error.details).toEqual({ address: empty })
    expect(asked).toEqual([])
  })

  it("the user's no (4001) is FUNDING_USER_REJECTED and nothing moves", async () => {
    const to = fresh()
    const { wallet } = anvilWallet(DEV_ACCOUNT, { refuse: true })
    const error = await failure(
      transferFromEthereumWallet({
        chain,
        wallet,
        to,
        amount: '0.1',
        token: ETH,
        readBalance: (owner) => readBalance(target(), owner, ETH),
      }),
    )
    expect(error.code).toBe('FUNDING_USER_REJECTED')
    expect(error.message).toBe('Transaction was rejected by the user')
    expect(await readBalance(target(), to, ETH)).toBe(0n)
  })

  it("the user's no to the network switch is 'User rejected the request.' and nothing is sent", async () => {
    const to = fresh()
    const { wallet, asked } = anvilWallet(DEV_ACCOUNT)
    const refusing = {
      ...wallet,
      switchChain: async () => {
        throw Object.assign(new Error('User rejected the request.'), { code: 4001 })
      },
    } as ConnectedEthereumExternalWallet
    const error = await failure(
      transferFromEthereumWallet({
        chain,
        wallet: refusing,
        to,
        amount: '0.1',
        token: ETH,
        readBalance: (owner) => readBalance(target(), owner, ETH),
      }),
    )
    expect(error.code).toBe('FUNDING_REQUEST_REJECTED')
    expect(error.message).toBe('User rejected the request.')
    expect(asked.filter((method) => method === 'eth_sendTransaction')).toEqual([])
    expect(await readBalance(target(), to, ETH)).toBe(0n)
  })
})
