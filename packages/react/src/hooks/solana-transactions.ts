import {
  type EmbeddedWalletAccount,
  insufficientBalance,
  LatchkeyError,
  signSolanaTransaction,
} from '@latchkey/core'
import type { SolanaClient } from '@latchkey/core/solana'
import type { LatchkeyInstance } from '../store.ts'
import type {
  SolanaCluster,
  SolanaStepResult,
  SolanaTransactionRequest,
  TransactionUiOptions,
} from '../transaction-requests.ts'
import { appSolanaClusters } from './app-chains.ts'
import { openConnectWallet, recoveryHandlers, transactionWallet } from './signing.ts'
import { transactionFunding } from './transaction-funding.ts'

// @solana/kit and the decoders load with the first Solana transaction: the
// modal's first chunk (and apps that never send on Solana) do not carry them.
const solana = () => import('@latchkey/core/solana')

export { appSolanaClusters }

/**
 * The cluster called `name` among the app's, else the first; one the app did
 * not configure is UNSUPPORTED_CHAIN, before anything is signed.
 */
export function findSolanaCluster(
  clusters: readonly SolanaCluster[],
  name?: string,
): SolanaCluster {
  const cluster = name === undefined ? clusters[0] : clusters.find((c) => c.name === name)
  if (!cluster)
    throw new LatchkeyError(
      'UNSUPPORTED_CHAIN',
      `Solana cluster ${name} is not in the app's solanaClusters.`,
      { details: { cluster: name } },
    )
  return cluster
}

const PUBLIC_CLUSTERS = new Set(['devnet', 'testnet'])

/**
 * A page of explorer.solana.com for a signature (`tx/…`) or an address
 * (`address/…`): mainnet-beta without a cluster parameter, devnet and
 * testnet by name, any other cluster (a local ledger) as a custom one at its
 * RPC URL.
 *
 * @example
 * solanaExplorerUrl({ name: 'devnet', rpcUrl }, `tx/${signature}`)
 * // 'https://explorer.solana.com/tx/<signature>?cluster=devnet'
 */
export function solanaExplorerUrl(
  cluster: SolanaCluster,
  path: `tx/${string}` | `address/${string}`,
): string {
  const page = `https://explorer.solana.com/${path}`
  if (cluster.name === 'mainnet-beta') return page
  if (PUBLIC_CLUSTERS.has(cluster.name)) return `${page}?cluster=${cluster.name}`
  return `${page}?cluster=custom&customUrl=${encodeURIComponent(cluster.rpcUrl)}`
}

export interface SolanaTransactionRequestParameters {
  cluster: SolanaCluster
  /** The wire transaction (legacy or v0) as the app built it. */
  transaction: Uint8Array
  mode: 'send' | 'sign'
  uiOptions: TransactionUiOptions
}

/**
 * What the Solana confirm screen runs for `wallet` (spec 03 "Solana
 * transaction confirm"): prepare (fee, balance, decoded instructions, the
 * funds check), refresh (a new recent blockhash for 'Retry transaction') and
 * submit — signed in the enclave, then in mode 'send' sent and confirmed;
 * on mainnet-beta also SOL's USD price from the Latchkey server.
 */
export function solanaTransactionRequest(
  instance: LatchkeyInstance,
  wallet: EmbeddedWalletAccount,
  { cluster, transaction, mode, uiOptions }: SolanaTransactionRequestParameters,
): SolanaTransactionRequest {
  let rpc: Promise<SolanaClient> | undefined
  const client = () => {
    rpc ??= solana().then((s) => s.createSolanaClient(cluster.rpcUrl))
    return rpc
  }
  const sign = (wire: Uint8Array) => signSolanaTransaction(instance.client, wallet, wire)
  return {
    screen: 'solana-transaction',
    mode,
    address: wallet.address,
    cluster,
    transaction,
    uiOptions,
    async prepare(wire) {
      const [s, node] = await Promise.all([solana(), client()])
      return s.prepareSolanaTransaction({ rpc: node, wallet: wallet.address, transaction: wire })
    },
    async refresh(wire) {
      const [s, node] = await Promise.all([solana(), client()])
      return s.refreshBlockhash(node, wire)
    },
    async submit(wire): Promise<SolanaStepResult> {
      if (mode === 'sign') return { signedTransaction: await sign(wire) }
      const [s, node] = await Promise.all([solana(), client()])
      const sent = await s.sendSolanaTransaction({ rpc: node, transaction: wire, sign })
      return { signedTransaction: sent.transaction, signature: sent.signature, fees: sent.fees }
    },
    explorerUrl: (signature) => solanaExplorerUrl(cluster, `tx/${signature}`),
    // Spec 03 §7: chain 0 with symbol SOL is Solana. Devnet, testnet and local SOL are worth nothing.
    ...(cluster.name === 'mainnet-beta' && {
      usdPrice: async () =>
        (await import('@latchkey/core/transactions')).getTokenPrice(instance.client, {
          chainId: 0,
          tokenSymbol: 'SOL',
        }),
    }),
    ...recoveryHandlers(instance, wallet),
    ...transactionFunding(instance, wallet.address, { chainType: 'solana', cluster }),
  }
}

/**
 * Runs a Solana transaction request: on the confirm screen, or at once when
 * the app turned wallet UIs off for the call — then, when sending, a wallet
 * without the funds fails with INSUFFICIENT_BALANCE before anything is
 * signed (spec 03 §5), and a wallet that needs the user to recover it on
 * this device opens the connect-wallet screen first.
 */
export async function requestSolanaTransaction(
  instance: LatchkeyInstance,
  request: SolanaTransactionRequest,
): Promise<SolanaStepResult> {
  if (request.uiOptions.showWalletUIs !== false) return instance.openWalletScreen(request)
  if (request.mode === 'send') {
    const prepared = await request.prepare(request.transaction)
    if (!prepared.hasFunds)
      throw insufficientBalance('solana', request.address, {
        balance: prepared.balance,
        fee: prepared.fee,
      })
  }
  try {
    return await request.submit(request.transaction)
  } catch (error) {
    if (!(error instanceof LatchkeyError && error.code === 'RECOVERY_REQUIRED' && request.recovery))
      throw error
    await openConnectWallet(instance, request.recovery)
    return request.submit(request.transaction)
  }
}

/** What the Solana transaction hooks take. */
export interface SolanaTransactionParameters {
  /** The wire transaction (legacy or v0, e.g. @solana/kit's `getTransactionEncoder().encode(tx)`). */
  transaction: Uint8Array
  /** Which embedded Solana wallet signs. Default: the user's first. */
  address?: string
  /** One of the app's `solanaClusters`, by name. Default: the first. */
  cluster?: string
  /** Wording overrides, 'Not now', or no screen at all (`showWalletUIs: false`). */
  uiOptions?: TransactionUiOptions
}

/** Resolves the wallet and the cluster, then runs the request (screen or not). */
export async function runSolanaTransaction(
  instance: LatchkeyInstance,
  { transaction, address, cluster, uiOptions }: SolanaTransactionParameters,
  mode: 'send' | 'sign',
): Promise<SolanaStepResult> {
  if (!(transaction instanceof Uint8Array) || transaction.length === 0)
    throw new LatchkeyError('INVALID_TRANSACTION_REQUEST')
  const wallet = transactionWallet(instance, 'solana', address)
  const clusters = appSolanaClusters(instance.getUiState().hostConfig)
  return requestSolanaTransaction(
    instance,
    solanaTransactionRequest(instance, wallet, {
      cluster: findSolanaCluster(clusters, cluster),
      transaction,
      mode,
      uiOptions: uiOptions ?? {},
    }),
  )
}
