// @vitest-environment node
import type { EthereumTransactionWire } from '@latchkey/protocol/schemas'
import { ANVIL_DEV_KEY, type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import { type Chain, defineChain, type Hex, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { setupEnclaveClient, walletWire } from '../test/enclave-client.ts'
import { embeddedWallets } from './createWallet.ts'
import { createEmbeddedEthereumProvider } from './ethereumProvider.ts'

// The provider's transaction methods against a real node (Anvil), with the
// enclave played by a function holding Anvil's first dev key: what core
// prepares is signed as the enclave would sign it, then really sent.
const account = privateKeyToAccount(ANVIL_DEV_KEY)
const RECIPIENT = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
let anvil: AnvilNode
let chain: Chain

beforeAll(async () => {
  anvil = await startAnvil()
  chain = defineChain({
    id: anvil.chainId,
    name: 'Anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [anvil.rpcUrl] } },
  })
})
afterAll(() => anvil.stop())

function signer(seen: EthereumTransactionWire[]) {
  return async (event: string, data: Record<string, unknown>) => {
    if (event === 'latchkey:wallets:connect')
      return { entropy_id: account.address, status: 'ready', recovery_method: 'latchkey' }
    const [tx] = (data.request as { params: [EthereumTransactionWire] }).params
    seen.push(tx)
    const fees =
      tx.type === 'eip1559'
        ? {
            maxFeePerGas: BigInt(tx.maxFeePerGas!),
            maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas!),
          }
        : { gasPrice: BigInt(tx.gasPrice!) }
    const result = await account.signTransaction({
      type: tx.type,
      chainId: tx.chainId,
      to: tx.to as Hex,
      value: BigInt(tx.value),
      nonce: tx.nonce,
      gas: BigInt(tx.gas),
      data: tx.data as Hex | undefined,
      ...fees,
    } as never)
    return { result }
  }
}

function provider(seen: EthereumTransactionWire[] = [], chains = [chain]) {
  const { client } = setupEnclaveClient(signer(seen), [
    walletWire(account.address, 'ethereum', 0, account.address),
  ])
  const wallet = embeddedWallets(client.session.getState().user)[0]!
  return createEmbeddedEthereumProvider(client, wallet, { chains })
}

describe('the embedded provider sends transactions on the app chains', () => {
  it('eth_sendTransaction: prepared, signed in the enclave, sent, mined', async () => {
    const seen: EthereumTransactionWire[] = []
    const p = provider(seen)
    const before = BigInt(
      (await p.request({ method: 'eth_getBalance', params: [RECIPIENT, 'latest'] })) as string,
    )
    const hash = (await p.request({
      method: 'eth_sendTransaction',
      params: [{ from: account.address, to: RECIPIENT, value: '0xde0b6b3a7640000' }],
    })) as Hex
    const receipt = (await p.request({ method: 'eth_getTransactionReceipt', params: [hash] })) as {
      status: string
    }
    expect(receipt.status).toBe('0x1')
    const after = BigInt(
      (await p.request({ method: 'eth_getBalance', params: [RECIPIENT, 'latest'] })) as string,
    )
    expect(after - before).toBe(parseEther('1'))
    // Every field was filled in before the enclave saw it.
    expect(seen[0]).toMatchObject({ chainId: anvil.chainId, type: 'eip1559', gas: '0x5208' })
  })

  it('eth_signTransaction answers the signed transaction without sending it', async () => {
    const p = provider()
    const count = await p.request({
      method: 'eth_getTransactionCount',
      params: [account.address, 'pending'],
    })
    const signed = await p.request({
      method: 'eth_signTransaction',
      params: [{ to: RECIPIENT, value: '0x1' }],
    })
    expect(signed).toMatch(/^0x02/)
    expect(
      await p.request({ method: 'eth_getTransactionCount', params: [account.address, 'pending'] }),
    ).toBe(count)
  })

  it('refuses another from (4100), an unconfigured chain before signing, and a switch to one (4902)', async () => {
    const seen: EthereumTransactionWire[] = []
    const p = provider(seen)
    await expect(
      p.request({ method: 'eth_sendTransaction', params: [{ from: RECIPIENT, to: RECIPIENT }] }),
    ).rejects.toMatchObject({ code: 4100 })
    await expect(
      p.request({ method: 'eth_sendTransaction', params: [{ to: RECIPIENT, chainId: '0x1' }] }),
    ).rejects.toMatchObject({
      code: 'UNSUPPORTED_CHAIN',
      message: 'Chain ID 1 is not supported by this app.',
    })
    await expect(
      p.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x1' }] }),
    ).rejects.toMatchObject({ code: 4902 })
    expect(seen).toEqual([])
  })

  it('refuses to send without the funds, before anything is signed (INSUFFICIENT_BALANCE)', async () => {
    const seen: EthereumTransactionWire[] = []
    const p = provider(seen)
    await expect(
      p.request({
        method: 'eth_sendTransaction',
        params: [{ to: RECIPIENT, value: parseEther('1000000').toString() }],
      }),
    ).rejects.toMatchObject({ code: 'INSUFFICIENT_BALANCE' })
    expect(seen).toEqual([])
  })
})
