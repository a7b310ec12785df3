import {
  type EmbeddedWalletAccount,
  insufficientBalance,
  LatchkeyError,
  signEthereumTransaction,
} from '@latchkey/core'
import type {
  EthereumTransactionInput,
  PreparedEthereumTransaction,
  TransactionScanResult,
} from '@latchkey/core/transactions'
import type { Chain, Hex } from 'viem'
import type { LatchkeyInstance } from '../store.ts'
import type {
  EthereumScanOutcome,
  EthereumStepResult,
  EthereumTransactionRequest,
  TransactionUiOptions,
} from '../transaction-requests.ts'
import { appChains, isTestChain } from './app-chains.ts'
import { openConnectWallet, recoveryHandlers, transactionWallet } from './signing.ts'
import { transactionFunding } from './transaction-funding.ts'

// Chain access, decoding and simulation load with the first transaction: the
// modal's first chunk does not carry them.
const transactions = () => import('@latchkey/core/transactions')

export { appChains }

/** The explorer page of a transaction on `chain`; null for a chain without one (a local node). */
export function explorerTxUrl(chain: Chain, hash: string): string | null {
  const base = chain.blockExplorers?.default.url
  return base ? `${base.replace(/\/+$/, '')}/tx/${hash}` : null
}

/**
 * Whether the confirm screen prices `chain`'s native currency: not on a test
 * or local chain, where a mainnet price would misstate what is at stake.
 */
export const pricesNativeCurrency = (chain: Chain): boolean => !isTestChain(chain)

/**
 * Spec 03 §5: a scan with no asset in or out, or a failed simulation, is a
 * failure and the preview falls back to plain; a Malicious or Warning
 * verdict is shown whatever the simulation found.
 */
function outcomeOf(
  source: 'app' | 'simulation',
  result: TransactionScanResult,
): EthereumScanOutcome {
  const verdict = result.validation?.result_type
  if (verdict === 'Malicious' || verdict === 'Warning')
    return { status: 'completed', source, result }
  const simulation = result.simulation
  if (!simulation || simulation.status === 'Error')
    return {
      status: 'failed',
      source,
      message: simulation?.error === 'No tokens found' ? 'No tokens found' : 'Simulation failed',
    }
  const moved = simulation.assets_diffs.some((d) => d.in.length > 0 || d.out.length > 0)
  return moved
    ? { status: 'completed', source, result }
    : { status: 'failed', source, message: 'No tokens found' }
}

export interface EthereumTransactionRequestParameters {
  chain: Chain
  requests: EthereumTransactionInput[]
  mode: 'send' | 'sign'
  uiOptions: TransactionUiOptions
}

/**
 * What the confirm screen runs for `wallet` (spec 03 "Ethereum transaction
 * confirm"): decode and read the token, prepare (gas, fees, funds), scan
 * (the app's scanner, else the built-in `eth_simulateV1` simulation), and
 * submit — signed in the enclave, then sent and its receipt awaited; and the
 * native currency's USD price from the Latchkey server (spec 03 §7).
 */
export function ethereumTransactionRequest(
  instance: LatchkeyInstance,
  wallet: EmbeddedWalletAccount,
  { chain, requests, mode, uiOptions }: EthereumTransactionRequestParameters,
): EthereumTransactionRequest {
  const { client } = instance
  const from = wallet.address as Hex
  const sign = (request: PreparedEthereumTransaction['request']) =>
    signEthereumTransaction(client, wallet, request)
  return {
    screen: 'ethereum-transaction',
    mode,
    address: wallet.address,
    chain,
    requests,
    uiOptions,
    async preview(input) {
      const t = await transactions()
      const called = input.to && input.data && input.data !== '0x' ? input.to : null
      const token = called
        ? await t.readTokenInfo(t.chainClient(chain), called).catch(() => null)
        : null
      return { decoded: t.decodeEthereumTransaction(input, { tokenKind: token?.kind }), token }
    },
    async prepare(input) {
      const t = await transactions()
      return t.prepareEthereumTransaction({ client: t.chainClient(chain), chain, from, input })
    },
    async scan(prepared) {
      const { transactions: options } = instance.getUiState().hostConfig
      if (options?.scan) {
        try {
          const result = await options.scan({
            metadata: { domain: globalThis.location?.host ?? '' },
            chain_id: chain.id,
            account_address: from,
            request: {
              method: mode === 'send' ? 'eth_sendTransaction' : 'eth_signTransaction',
              params: [{ ...prepared.request, from }],
            },
          })
          return outcomeOf('app', result)
        } catch {
          return { status: 'failed', source: 'app', message: 'Transaction scan failed' }
        }
      }
      if (options?.simulation === false)
        return { status: 'unsupported', reason: 'Simulation is turned off for this app.' }
      const t = await transactions()
      const result = await t.simulateEthereumTransaction({
        client: t.chainClient(chain),
        from,
        request: prepared.request,
      })
      if ('unsupported' in result) return { status: 'unsupported', reason: result.reason }
      return outcomeOf('simulation', result)
    },
    async submit(prepared): Promise<EthereumStepResult> {
      if (mode === 'sign') return { signedTransaction: await sign(prepared.request) }
      const t = await transactions()
      return t.sendPreparedEthereumTransaction({ client: t.chainClient(chain), prepared, sign })
    },
    explorerUrl: (hash) => explorerTxUrl(chain, hash),
    ...(pricesNativeCurrency(chain) && {
      usdPrice: async () =>
        (await transactions()).getTokenPrice(client, {
          chainId: chain.id,
          tokenSymbol: chain.nativeCurrency.symbol,
        }),
    }),
    ...recoveryHandlers(instance, wallet),
    ...transactionFunding(instance, wallet.address, { chainType: 'ethereum', chain }),
  }
}

/**
 * Runs a transaction request: on the confirm screen, or at once when the app
 * turned wallet UIs off for the call — then a wallet without the funds fails
 * with INSUFFICIENT_BALANCE before anything is signed, and a wallet that needs
 * the user to recover it on this device opens the connect-wallet screen first.
 */
export async function requestEthereumTransaction(
  instance: LatchkeyInstance,
  request: EthereumTransactionRequest,
): Promise<EthereumStepResult[]> {
  if (request.uiOptions.showWalletUIs !== false) return instance.openWalletScreen(request)
  const results: EthereumStepResult[] = []
  for (const input of request.requests) {
    const prepared = await request.prepare(input)
    if (!prepared.hasFunds)
      throw insufficientBalance('ethereum', request.address, { balance: prepared.balance })
    try {
      results.push(await request.submit(prepared))
    } catch (error) {
      if (
        !(error instanceof LatchkeyError && error.code === 'RECOVERY_REQUIRED' && request.recovery)
      )
        throw error
      await openConnectWallet(instance, request.recovery)
      results.push(await request.submit(prepared))
    }
  }
  return results
}

/** Resolves the wallet and the chain, then runs the request (screen or not). */
export async function runEthereumTransaction(
  instance: LatchkeyInstance,
  request: EthereumTransactionInput | EthereumTransactionInput[],
  options: { uiOptions?: TransactionUiOptions; address?: string },
  mode: 'send' | 'sign',
) {
  const requests = Array.isArray(request) ? request : [request]
  if (requests.length === 0) throw new LatchkeyError('INVALID_TRANSACTION_REQUEST')
  const wallet = transactionWallet(instance, 'ethereum', options.address)
  const { chains, defaultChain } = appChains(instance.getUiState().hostConfig)
  const { findChain, normalizeEthereumRequest } = await transactions()
  const inputs = requests.map((r) => normalizeEthereumRequest(r))
  const chain = findChain(chains, inputs[0]?.chainId ?? defaultChain.id)
  for (const input of inputs) findChain([chain], input.chainId ?? chain.id)
  return requestEthereumTransaction(
    instance,
    ethereumTransactionRequest(instance, wallet, {
      chain,
      requests: inputs,
      mode,
      uiOptions: options.uiOptions ?? {},
    }),
  )
}
