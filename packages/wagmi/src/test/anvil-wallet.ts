import {
  createEmbeddedEthereumProvider,
  type EthereumProviderOptions,
  embeddedWallets,
} from '@latchkey/core'
import { type AnvilNode, startAnvil } from '@latchkey/server/test/chains'
import { type Chain, defineChain, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
// core's function enclave, by path (core does not export its test helpers).
import { setupEnclaveClient, walletWire } from '../../../core/src/test/enclave-client.ts'
import type { LatchkeyWagmiWallet } from '../latchkeyConnector.ts'

// Anvil's first dev key: funded on every fresh node.
export const DEV_KEY: Hex = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
export const devAccount = privateKeyToAccount(DEV_KEY)

export { type AnvilNode, startAnvil }

/** A viem chain for a local Anvil node. */
export const anvilChain = (node: AnvilNode, name = 'Anvil'): Chain =>
  defineChain({
    id: node.chainId,
    name,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [node.rpcUrl] } },
  })

/**
 * The enclave played by a function holding Anvil's dev key: it signs what
 * core's embedded provider prepares (personal_sign, transactions) as the
 * enclave would, so what the provider answers is really signed and sent.
 */
export async function devKeyEnclave(event: string, data: Record<string, unknown>) {
  if (event === 'latchkey:wallets:connect')
    return { entropy_id: devAccount.address, status: 'ready', recovery_method: 'latchkey' }
  const request = data.request as { method: string; params: unknown[] }
  if (request.method === 'personal_sign')
    return { result: await devAccount.signMessage({ message: { raw: request.params[0] as Hex } }) }
  const tx = request.params[0] as {
    type: 'eip1559' | 'legacy'
    chainId: number
    to: Hex
    value: string
    nonce: number
    gas: string
    data?: Hex
    maxFeePerGas?: string
    maxPriorityFeePerGas?: string
    gasPrice?: string
  }
  const fees =
    tx.type === 'eip1559'
      ? {
          maxFeePerGas: BigInt(tx.maxFeePerGas!),
          maxPriorityFeePerGas: BigInt(tx.maxPriorityFeePerGas!),
        }
      : { gasPrice: BigInt(tx.gasPrice!) }
  const result = await devAccount.signTransaction({
    type: tx.type,
    chainId: tx.chainId,
    to: tx.to,
    value: BigInt(tx.value),
    nonce: tx.nonce,
    gas: BigInt(tx.gas),
    data: tx.data,
    ...fees,
  } as never)
  return { result }
}

/**
 * An embedded wallet as `useWallets()` gives it, over core's real EIP-1193
 * provider on `chains` (the Latchkey app's chains), its enclave a function
 * with Anvil's dev key. `onTransaction` stands where the confirm screen is.
 */
export function embeddedAnvilWallet(
  chains: readonly Chain[],
  options: Pick<EthereumProviderOptions, 'onTransaction'> = {},
): LatchkeyWagmiWallet {
  const { client } = setupEnclaveClient(devKeyEnclave, [
    walletWire(devAccount.address, 'ethereum', 0, devAccount.address),
  ])
  const account = embeddedWallets(client.session.getState().user)[0]!
  const provider = createEmbeddedEthereumProvider(client, account, { chains, ...options })
  return {
    address: account.address,
    connectorType: 'embedded',
    walletClientType: 'latchkey',
    getEthereumProvider: () => provider,
  }
}
