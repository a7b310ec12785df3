import {
  type BridgeQuote,
  createBridgeClient,
  LatchkeyError,
  RELAY_SOLANA_CHAIN_ID,
  RELAY_SOLANA_DEVNET_CHAIN_ID,
  toSolanaInstructions,
  watchBridgeStatus,
} from '@latchkey/core'
import type { ConnectedSolanaExternalWallet } from '@latchkey/core/external'
import { formatNativeAmount } from '@latchkey/core/transactions'
import type { FundingConfig } from '@latchkey/protocol/schemas'
import { type Chain, getAddress, parseUnits } from 'viem'
import { isTestChain } from '../../hooks/app-chains.ts'
import { type SolanaCluster, solanaClusterLabel } from '../../solana-clusters.ts'
import type { BridgeOption, FundWalletRequest } from './request.ts'
import { sendFromSolanaWallet } from './transfer-solana.ts'

/** SOL's decimals (spec 03 §9). */
const SOL_DECIMALS = 9

export interface BridgeFromSolanaInput {
  /** The Ethereum wallet being funded. */
  recipient: string
  /** The funding chain: the bridge delivers its native currency there. */
  chain: Chain
  bridge: NonNullable<FundingConfig['bridge']>
  /** The app's Solana clusters: the paying wallet's SOL is read and sent on one of them. */
  clusters: readonly SolanaCluster[]
  fetch?: typeof globalThis.fetch
}

/**
 * The Solana cluster to bridge from: mainnet-beta for a mainnet chain, the
 * app's first test cluster for a testnet (spec 03 §5: testnets only with
 * testnets); none, and the bridge is not offered.
 */
export function bridgeSourceCluster(
  chain: Chain,
  clusters: readonly SolanaCluster[],
): SolanaCluster | undefined {
  return isTestChain(chain)
    ? clusters.find((c) => c.name !== 'mainnet-beta')
    : clusters.find((c) => c.name === 'mainnet-beta')
}

type SolanaDeposit = Extract<BridgeQuote['tx'], { kind: 'solana' }>

/**
 * Spec 03 "Transfer from another network", Solana → Ethereum (§7
 * "Bridging"): from a connected external Solana wallet, quote the amount
 * asked of the chain's native currency (exact output, in its base units)
 * against the wallet's SOL, then build the quote's deposit instructions into
 * one transaction, have the wallet sign it, send it on the cluster and
 * follow the bridge every 1 s until the funds arrive — or a BRIDGE_FAILED
 * that links to the refund status. No SOL: BRIDGE_INSUFFICIENT_BALANCE.
 */
export function bridgeFromSolanaOperations(
  input: BridgeFromSolanaInput,
): NonNullable<FundWalletRequest['bridgeFromSolana']> | undefined {
  const cluster = bridgeSourceCluster(input.chain, input.clusters)
  if (!cluster) return undefined
  const testnet = isTestChain(input.chain)
  const client = createBridgeClient({
    apiUrl: testnet ? input.bridge.testnet_api_url : input.bridge.api_url,
    // Refund links go to Relay's site for the network the deposit went to.
    explorerUrl: testnet ? 'https://testnets.relay.link' : 'https://relay.link',
    ...(input.fetch ? { fetch: input.fetch } : {}),
  })
  const originChainId = testnet ? RELAY_SOLANA_DEVNET_CHAIN_ID : RELAY_SOLANA_CHAIN_ID
  const recipient = getAddress(input.recipient)
  const quotes = new Map<BridgeOption, SolanaDeposit>()
  const solana = () => import('@latchkey/core/solana')

  return {
    async options(wallet: ConnectedSolanaExternalWallet, amount: string) {
      const { createSolanaClient } = await solana()
      const rpc = createSolanaClient(cluster.rpcUrl)
      type SolanaAddress = Parameters<typeof rpc.getBalance>[0]
      const { value: balance } = await rpc
        .getBalance(wallet.address as SolanaAddress)
        .send()
        .catch(() => ({ value: 0n }))
      if (balance === 0n) throw new LatchkeyError('BRIDGE_INSUFFICIENT_BALANCE')
      const quote = await client.quote({
        user: wallet.address,
        recipient,
        originChainId,
        destinationChainId: input.chain.id,
        amount: parseUnits(amount, input.chain.nativeCurrency.decimals),
        tradeType: 'EXACT_OUTPUT',
      })
      if (quote.tx.kind !== 'solana')
        throw new LatchkeyError('BRIDGE_QUOTE_FAILED', 'The bridge quote is not a Solana deposit')
      const option: BridgeOption = {
        chainId: originChainId,
        chainName: solanaClusterLabel(cluster.name),
        balance: `${formatNativeAmount(balance, SOL_DECIMALS)} SOL`,
        pay: `${quote.amountIn} SOL`,
      }
      quotes.set(option, quote.tx)
      return [option]
    },
    async send(wallet, option, onStep) {
      const deposit = quotes.get(option)
      if (!deposit) throw new LatchkeyError('BRIDGE_OPTION_FAILED')
      const kit = await solana()
      const rpc = kit.createSolanaClient(cluster.rpcUrl)
      const { transaction } = await kit.buildSolanaInstructionsTransaction({
        rpc,
        feePayer: wallet.address,
        instructions: toSolanaInstructions(deposit),
        addressLookupTableAddresses: deposit.addressLookupTableAddresses,
      })
      onStep('confirm')
      const signature = await sendFromSolanaWallet({
        solana: kit,
        rpc,
        wallet,
        transaction,
        onSubmitted: (sent) => onStep('submitted', sent),
        failedCode: 'BRIDGE_TRANSACTION_FAILED',
      })
      onStep('bridging', signature)
      await watchBridgeStatus({ client, hash: signature })
    },
  }
}
