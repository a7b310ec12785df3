import {
  type BridgeQuote,
  createBridgeClient,
  LatchkeyError,
  RELAY_SOLANA_CHAIN_ID,
  RELAY_SOLANA_DEVNET_CHAIN_ID,
  watchBridgeStatus,
} from '@latchkey/core'
import type { ConnectedEthereumExternalWallet } from '@latchkey/core/external'
import { chainClient, formatNativeAmount } from '@latchkey/core/transactions'
import type { FundingConfig } from '@latchkey/protocol/schemas'
import { type Chain, getAddress, parseUnits } from 'viem'
import { getBalance } from 'viem/actions'
import { isTestChain } from '../../hooks/app-chains.ts'
import type { BridgeOption, BridgeStep, FundWalletRequest } from './request.ts'
import { sendFromEthereumWallet } from './transfer-ethereum.ts'

/** SOL's decimals: the quote asks for lamports (spec 03 §9 "Solana bridge"). */
const SOL_DECIMALS = 9

export interface BridgeOperationsInput {
  /** The Solana wallet being funded. */
  recipient: string
  /** The Solana cluster: mainnet-beta bridges from mainnets, any other from testnets. */
  clusterName: string
  bridge: NonNullable<FundingConfig['bridge']>
  /** The app's Ethereum chains, the candidates to bridge from. */
  chains: readonly Chain[]
  fetch?: typeof globalThis.fetch
}

/**
 * Spec 03 "Solana bridge-funding" (§4, §7 "Bridging"): from a connected
 * external Ethereum wallet, find the app's chains where it holds funds
 * (testnets only for a test cluster), quote each through the bridge
 * (exact output: the SOL asked for, in lamports), then deposit on the chosen
 * chain and follow the bridge every 1 s until the SOL arrives — or a
 * BRIDGE_FAILED that links to the refund status.
 */
export function bridgeOperations(
  input: BridgeOperationsInput,
): NonNullable<FundWalletRequest['bridge']> {
  const testCluster = input.clusterName !== 'mainnet-beta'
  const client = createBridgeClient({
    apiUrl: testCluster ? input.bridge.testnet_api_url : input.bridge.api_url,
    // Refund links go to Relay's site for the network the deposit went to.
    explorerUrl: testCluster ? 'https://testnets.relay.link' : 'https://relay.link',
    ...(input.fetch ? { fetch: input.fetch } : {}),
  })
  const destinationChainId = testCluster ? RELAY_SOLANA_DEVNET_CHAIN_ID : RELAY_SOLANA_CHAIN_ID
  const candidates = input.chains.filter((chain) => isTestChain(chain) === testCluster)
  const quotes = new Map<BridgeOption, { chain: Chain; quote: BridgeQuote; balance: bigint }>()

  return {
    async options(wallet, amount) {
      const lamports = parseUnits(amount, SOL_DECIMALS)
      const user = getAddress(wallet.address)
      const found = await Promise.all(
        candidates.map(async (chain) => {
          const balance = await getBalance(chainClient(chain), { address: user }).catch(() => 0n)
          if (balance === 0n) return { chain, balance, quote: null }
          const quote = await client
            .quote({
              user,
              recipient: input.recipient,
              originChainId: chain.id,
              destinationChainId,
              amount: lamports,
              tradeType: 'EXACT_OUTPUT',
            })
            .catch(() => null)
          return { chain, balance, quote: quote?.tx.kind === 'evm' ? quote : null }
        }),
      )
      if (found.every((f) => f.balance === 0n))
        throw new LatchkeyError('BRIDGE_INSUFFICIENT_BALANCE')
      const options: BridgeOption[] = []
      for (const { chain, balance, quote } of found) {
        if (!quote) continue
        const { symbol, decimals } = chain.nativeCurrency
        const option: BridgeOption = {
          chainId: chain.id,
          chainName: chain.name,
          balance: `${formatNativeAmount(balance, decimals)} ${symbol}`,
          pay: `${quote.amountIn} ${symbol}`,
        }
        quotes.set(option, { chain, quote, balance })
        options.push(option)
      }
      if (options.length === 0) throw new LatchkeyError('BRIDGE_QUOTE_FAILED')
      return options
    },
    async send(wallet: ConnectedEthereumExternalWallet, option, onStep) {
      const picked = quotes.get(option)
      if (picked?.quote.tx.kind !== 'evm') throw new LatchkeyError('BRIDGE_OPTION_FAILED')
      const { chain, quote, balance } = picked
      const tx = quote.tx as Extract<BridgeQuote['tx'], { kind: 'evm' }>
      if (balance < tx.value) throw new LatchkeyError('BRIDGE_INSUFFICIENT_BALANCE')
      onStep('confirm')
      const hash = await sendFromEthereumWallet({
        chain,
        wallet,
        call: { to: tx.to, data: tx.data, value: tx.value },
        onSubmitted: (sent) => onStep('submitted', sent),
        revertedCode: 'BRIDGE_TRANSACTION_FAILED',
      })
      onStep('bridging', hash)
      await watchBridgeStatus({ client, hash })
    },
  }
}

export type { BridgeStep }
