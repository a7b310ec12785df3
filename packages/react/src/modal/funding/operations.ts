import {
  CARD_STATUS_START_DELAY_MS,
  createCoinbaseSession,
  formatNetworkName,
  LatchkeyError,
  moonpayCurrencyCode,
  paymentUri,
  signMoonpayUrl,
  USDC_DECIMALS,
  USDC_SOLANA_MINT,
  usdcAddress,
  watchBalance,
  watchCoinbaseStatus,
  watchMoonpayStatus,
} from '@latchkey/core'
import type { ConnectedExternalWallet } from '@latchkey/core/external'
import { chainClient, readTokenInfo } from '@latchkey/core/transactions'
import type { FundingConfig } from '@latchkey/protocol/schemas'
import { type Chain, erc20Abi, getAddress, parseUnits } from 'viem'
import { getBalance, readContract } from 'viem/actions'
import { resolveConfig } from '../../config.ts'
import { appChains, appSolanaClusters } from '../../hooks/app-chains.ts'
import type { SolanaCluster } from '../../solana-clusters.ts'
import type { LatchkeyInstance } from '../../store.ts'
import { onrampAnalytics } from './analytics.ts'
import { bridgeOperations } from './bridge.ts'
import { bridgeFromSolanaOperations } from './bridge-solana.ts'
import type { FundingToken, FundWalletRequest } from './request.ts'
import { transferFromEthereumWallet } from './transfer-ethereum.ts'
import { transferFromSolanaWallet } from './transfer-solana.ts'

// What the funding request runs (spec 03 §4, §7): token details, balances,
// the on-ramps' server calls and pollers, transfers from external wallets.
// Loaded with the funding screens, never with the host page.

/** The wallet's chain: an Ethereum-style chain or a Solana cluster. */
export type FundingTarget =
  | { chainType: 'ethereum'; chain: Chain }
  | { chainType: 'solana'; cluster: SolanaCluster }

/** What to fund, as the hook was asked. */
export type FundingAssetInput = 'native-currency' | 'USDC' | { erc20: `0x${string}` }

const KNOWN_CLUSTERS = ['mainnet-beta', 'devnet', 'testnet'] as const
type KnownCluster = (typeof KNOWN_CLUSTERS)[number]
const knownCluster = (name: string): KnownCluster | undefined =>
  (KNOWN_CLUSTERS as readonly string[]).includes(name) ? (name as KnownCluster) : undefined

/** Spec 03 §9: Solana, Devnet, Testnet, or the chain's name (an app's own cluster keeps its name). */
export function networkName(target: FundingTarget): string {
  if (target.chainType === 'ethereum') return formatNetworkName(target)
  const cluster = knownCluster(target.cluster.name)
  return cluster ? formatNetworkName({ chainType: 'solana', cluster }) : target.cluster.name
}

/** SOL's decimals (spec 03 §9). */
const SOL_DECIMALS = 9

const tokenDetailsFailed = (cause?: unknown) =>
  new LatchkeyError('TOKEN_DETAILS_FAILED', undefined, cause ? { cause } : {})

/** The asset's symbol, decimals and contract (mint), read from the chain for an ERC-20. */
async function tokenOf(target: FundingTarget, asset: FundingAssetInput): Promise<FundingToken> {
  if (target.chainType === 'solana') {
    if (asset === 'native-currency') return { symbol: 'SOL', decimals: SOL_DECIMALS }
    const cluster = knownCluster(target.cluster.name)
    const mint = cluster && cluster !== 'testnet' ? USDC_SOLANA_MINT[cluster] : undefined
    if (asset !== 'USDC' || !mint) throw tokenDetailsFailed()
    return { symbol: 'USDC', decimals: USDC_DECIMALS, address: mint }
  }
  const { chain } = target
  if (asset === 'native-currency') return { ...chain.nativeCurrency }
  if (asset === 'USDC') {
    const address = usdcAddress(chain.id)
    if (!address) throw tokenDetailsFailed()
    return { symbol: 'USDC', decimals: USDC_DECIMALS, address }
  }
  const info = await readTokenInfo(chainClient(chain), asset.erc20).catch((error: unknown) => {
    throw tokenDetailsFailed(error)
  })
  if (info.kind !== 'erc20' || info.decimals === undefined) throw tokenDetailsFailed()
  return { symbol: info.symbol ?? 'tokens', decimals: info.decimals, address: info.address }
}

/** The balance of `owner` in the asset: native or token, on either chain. */
export async function readBalance(
  target: FundingTarget,
  owner: string,
  token: FundingToken,
): Promise<bigint> {
  if (target.chainType === 'ethereum') {
    const client = chainClient(target.chain)
    const account = getAddress(owner)
    if (!token.address) return getBalance(client, { address: account })
    return readContract(client, {
      address: getAddress(token.address),
      abi: erc20Abi,
      functionName: 'balanceOf',
      args: [account],
    })
  }
  const { createSolanaClient } = await import('@latchkey/core/solana')
  const rpc = createSolanaClient(target.cluster.rpcUrl)
  type SolanaAddress = Parameters<typeof rpc.getBalance>[0]
  if (!token.address) return (await rpc.getBalance(owner as SolanaAddress).send()).value
  const { value } = await rpc
    .getTokenAccountsByOwner(
      owner as SolanaAddress,
      { mint: token.address as SolanaAddress },
      { encoding: 'jsonParsed' },
    )
    .send()
  // Every token account of the owner for this mint (the associated one, and any other).
  return value.reduce(
    (sum, { account }) => sum + BigInt(account.data.parsed.info.tokenAmount.amount),
    0n,
  )
}

/** The parts of the funding request that do work, for the wallet at `address`. */
export function fundWalletOperations(
  instance: LatchkeyInstance,
  input: {
    address: string
    target: FundingTarget
    asset: FundingAssetInput
    amount: string
    config: FundingConfig | null
  },
): Pick<
  FundWalletRequest,
  | 'token'
  | 'paymentUri'
  | 'watchBalance'
  | 'startMoonpay'
  | 'watchMoonpay'
  | 'startCoinbase'
  | 'watchCoinbase'
  | 'externalWallets'
  | 'transfer'
  | 'bridge'
  | 'bridgeFromSolana'
> {
  const { address, target, asset, amount, config } = input
  const { client } = instance
  const chainId = target.chainType === 'ethereum' ? target.chain.id : undefined
  const cluster = target.chainType === 'solana' ? knownCluster(target.cluster.name) : undefined
  const fundingAsset = (token: FundingToken) =>
    token.symbol === 'USDC' ? 'USDC' : 'native-currency'
  const requested = (token: FundingToken) => {
    try {
      return parseUnits(amount, token.decimals)
    } catch {
      return 0n
    }
  }
  // Ethereum's native currency may come bridged from a Solana wallet.
  const bridgeFromSolana =
    target.chainType === 'ethereum' &&
    asset === 'native-currency' &&
    config?.bridge &&
    config.cross_chain_bridging_enabled
      ? bridgeFromSolanaOperations({
          recipient: address,
          chain: target.chain,
          bridge: config.bridge,
          clusters: appSolanaClusters(instance.getUiState().hostConfig),
        })
      : undefined
  const fromSolana = bridgeFromSolana ? { bridgeFromSolana } : {}
  return {
    token: () => tokenOf(target, asset),
    paymentUri: (token) =>
      target.chainType === 'ethereum'
        ? paymentUri({
            chainType: 'ethereum',
            address,
            chainId: target.chain.id,
            amount,
            ...(token.address
              ? { token: { address: token.address, decimals: token.decimals } }
              : {}),
          })
        : paymentUri({
            chainType: 'solana',
            address,
            amount,
            ...(token.address ? { splToken: token.address } : {}),
          }),
    watchBalance(token, onChange, signal) {
      const wanted = requested(token)
      void watchBalance({
        read: () => readBalance(target, address, token),
        onChange: ({ balance, funded, atLeast }) =>
          onChange({ balance, funded, enough: wanted > 0n && atLeast(wanted) }),
        signal,
      })
    },
    async startMoonpay(token) {
      const code = moonpayCurrencyCode({
        chainType: target.chainType,
        chainId,
        cluster,
        asset: fundingAsset(token),
      })
      if (!code || !config?.moonpay) throw new LatchkeyError('ONRAMP_NOT_CONFIGURED')
      const { theme, accentColor } = resolveConfig(
        instance.getUiState().hostConfig,
        instance.getUiState().appConfig,
      )
      const { signedUrl, externalTransactionId } = await signMoonpayUrl(client, {
        address,
        currency_code: code,
        ...(Number(amount) > 0 ? { quote_currency_amount: amount } : {}),
        // The key decides: a sandbox key buys on the sandbox (the server checks they agree).
        use_sandbox: config.moonpay.sandbox,
        ui_config: {
          theme,
          ...(/^#[0-9a-fA-F]{6}$/.test(accentColor) ? { accent_color: accentColor } : {}),
        },
        payment_method: 'credit_debit_card',
      })
      onrampAnalytics(client, { provider: 'moonpay', chainType: target.chainType }).started('buy')
      return { url: signedUrl, id: externalTransactionId }
    },
    watchMoonpay(id, onStatus, signal) {
      const track = onrampAnalytics(client, { provider: 'moonpay', chainType: target.chainType })
      if (!config?.moonpay) {
        track.completed('serviceFailure')
        return onStatus('serviceFailure')
      }
      void watchMoonpayStatus({
        apiUrl: config.moonpay.api_url,
        publishableKey: config.moonpay.publishable_key,
        externalTransactionId: id,
        onStatus: (update) => {
          track.status(update.status)
          onStatus(update.status)
        },
        signal,
      }).then((last) => {
        if (!last) return
        const { status, paymentMethod, currencyCode, baseCurrencyAmount, quoteCurrencyAmount } =
          last
        track.completed(status, {
          paymentMethod,
          currencyCode,
          baseCurrencyAmount,
          quoteCurrencyAmount,
        })
      })
    },
    async startCoinbase(token, experience) {
      const { url, partnerUserId } = await createCoinbaseSession(client, {
        chain: chainId ?? 'solana',
        address,
        asset: token.symbol.toUpperCase(),
        ...(Number(amount) > 0 ? { amount } : {}),
        experience,
      })
      onrampAnalytics(client, { provider: 'coinbase', chainType: target.chainType }).started(
        experience,
      )
      return { url, id: partnerUserId }
    },
    watchCoinbase(partnerUserId, popup, onStatus, signal) {
      const track = onrampAnalytics(client, { provider: 'coinbase', chainType: target.chainType })
      const report = (status: Parameters<typeof onStatus>[0]) => {
        track.status(status)
        onStatus(status)
      }
      // Spec 03 §4: tracking begins after the provider's start delay (8 s for Coinbase);
      // the watcher still notices a popup closed during it.
      void watchCoinbaseStatus({
        client,
        partnerUserId,
        popup,
        onStatus: report,
        startDelayMs: CARD_STATUS_START_DELAY_MS.coinbase,
        signal,
      }).then((last) => last && track.completed(last))
    },
    externalWallets: () => instance.externalWallets.load(),
    ...(target.chainType === 'solana' && config?.bridge && config.cross_chain_bridging_enabled
      ? {
          bridge: bridgeOperations({
            recipient: address,
            clusterName: target.cluster.name,
            bridge: config.bridge,
            chains: appChains(instance.getUiState().hostConfig).chains,
          }),
        }
      : {}),
    ...fromSolana,
    async transfer(wallet: ConnectedExternalWallet, value, token, onSubmitted) {
      if (target.chainType === 'solana' && wallet.type === 'solana')
        return transferFromSolanaWallet({
          rpcUrl: target.cluster.rpcUrl,
          wallet,
          to: address,
          amount: value,
          token,
          onSubmitted,
        })
      if (target.chainType !== 'ethereum' || wallet.type !== 'ethereum')
        throw new LatchkeyError('FUNDING_INVALID_DATA')
      return transferFromEthereumWallet({
        chain: target.chain,
        wallet,
        to: address,
        amount: value,
        token,
        readBalance: (owner) => readBalance(target, owner, token),
        onSubmitted,
      })
    },
  }
}
