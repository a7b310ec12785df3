import { type EmbeddedWalletAccount, insufficientBalance, LatchkeyError } from '@latchkey/core'
import type {
  EthereumTransactionInput,
  PreparedEthereumTransaction,
} from '@latchkey/core/transactions'
import type { Address, Hex } from 'viem'
import { ethereumTransactionRequest } from '../hooks/ethereum-transactions.ts'
import { openConnectWallet } from '../hooks/signing.ts'
import type { LatchkeyInstance } from '../store.ts'
import type {
  EthereumStepResult,
  EthereumTransactionRequest,
  TransactionUiOptions,
} from '../transaction-requests.ts'
import type { SmartWalletCall, SmartWalletHandle } from './types.ts'

const transactions = () => import('@latchkey/core/transactions')

/** A confirm-screen step as a call; a call needs a target (a smart account deploys no contracts). */
export function callOf(
  input: Pick<EthereumTransactionInput, 'to' | 'value' | 'data'>,
): SmartWalletCall {
  if (!input.to)
    throw new LatchkeyError('INVALID_TRANSACTION_REQUEST', 'A smart wallet call needs `to`')
  return {
    to: input.to,
    ...(input.value !== undefined && { value: input.value }),
    ...(input.data !== undefined && input.data !== '0x' && { data: input.data }),
  }
}

/** The sum of a user operation's gas limits, shown as the step's gas (any field it lacks counts 0). */
function operationGas(userOperation: unknown): bigint {
  const op = (userOperation ?? {}) as Record<string, unknown>
  const fields = [
    'callGasLimit',
    'verificationGasLimit',
    'preVerificationGas',
    'paymasterVerificationGasLimit',
    'paymasterPostOpGasLimit',
  ]
  return fields.reduce((sum, f) => sum + (typeof op[f] === 'bigint' ? (op[f] as bigint) : 0n), 0n)
}

/**
 * The confirm screen's line on an EIP-7702 wallet's first transaction
 * (issue 24): the one that carries the authorization upgrading the wallet.
 */
export const EIP7702_UPGRADE_NOTE =
  'This transaction also upgrades your wallet to a smart wallet. Your address stays the same.'

export interface SmartWalletTransactionParameters {
  /** The app's smart-wallet config for this chain: 'Sponsored' instead of the fee. */
  sponsored: boolean
  /** An EIP-7702 wallet not upgraded yet: this operation carries its authorization. */
  upgrades?: boolean
  requests: EthereumTransactionInput[]
  uiOptions: TransactionUiOptions
}

/**
 * The confirm screen's request for a smart wallet (spec 03 "Ethereum
 * transaction confirm"): the embedded wallet's request (decoding, scan,
 * USD price, funding, recovery) for the smart account's address, with what
 * differs for a user operation. Every step is prepared against the whole
 * batch — a later call may need an earlier one (approve, then swap) — and
 * shows the one operation's max cost, or 'Sponsored' when the chain's
 * paymaster pays. The last 'Approve' sends every step as ONE user operation
 * (`submitAll`), signed in the enclave by `owner`.
 */
export function smartWalletTransactionRequest(
  instance: LatchkeyInstance,
  owner: EmbeddedWalletAccount,
  wallet: SmartWalletHandle,
  { sponsored, upgrades, requests, uiOptions }: SmartWalletTransactionParameters,
): EthereumTransactionRequest {
  const { chain } = wallet
  const from = wallet.address
  const calls = requests.map(callOf)
  const totalValue = calls.reduce((sum, c) => sum + (c.value ?? 0n), 0n)
  const base = ethereumTransactionRequest(
    instance,
    { ...owner, address: from },
    { chain, requests, mode: 'send', uiOptions },
  )
  const send = async (prepared: PreparedEthereumTransaction[]): Promise<EthereumStepResult> => {
    const sent = await wallet.sendCalls(prepared.map((p) => callOf(p.request)))
    // The bundle went through but the calls reverted inside the operation (its gas is spent).
    if (sent.success === false)
      throw new LatchkeyError('TRANSACTION_REVERTED', undefined, {
        details: {
          hash: sent.transactionHash,
          receipt: sent.receipt,
          userOperationHash: sent.userOperationHash,
        },
      })
    return {
      hash: sent.transactionHash,
      receipt: sent.receipt,
      userOperationHash: sent.userOperationHash,
    }
  }
  return {
    ...base,
    sponsored,
    ...(upgrades && { note: EIP7702_UPGRADE_NOTE }),
    async prepare(input) {
      const t = await transactions()
      const [operation, balance] = await Promise.all([
        wallet.prepareCalls(calls),
        t.nativeBalance(chain, from),
      ])
      // What the user pays: nothing when the paymaster took the operation.
      const fee = operation.sponsored ? 0n : operation.maxCost
      return {
        chain,
        from,
        request: {
          chainId: chain.id,
          type: 'eip1559',
          to: (input.to ?? null) as Address | null,
          ...(input.data && { data: input.data as Hex }),
          value: input.value ?? 0n,
          nonce: 0,
          gas: operationGas(operation.userOperation),
        },
        estimatedFee: fee,
        balance,
        // The account pays every call's value, and the gas unless a paymaster does.
        hasFunds: balance >= totalValue + fee,
      }
    },
    submit: (prepared) => send([prepared]),
    submitAll: send,
  }
}

/**
 * Runs a smart wallet's request: on the confirm screen, or at once when the
 * app turned wallet UIs off — then a wallet short of funds fails with
 * INSUFFICIENT_BALANCE before anything is signed, and a wallet that needs
 * recovering on this device opens the connect-wallet screen first. Either
 * way the calls go out as one user operation; its result is the one entry.
 */
export async function requestSmartWalletTransaction(
  instance: LatchkeyInstance,
  request: EthereumTransactionRequest,
): Promise<EthereumStepResult> {
  const submitAll = request.submitAll
  if (!submitAll) throw new Error('A smart wallet request sends its steps together')
  if (request.uiOptions.showWalletUIs !== false) {
    const results = await instance.openWalletScreen<EthereumStepResult[]>(request)
    return results[results.length - 1] as EthereumStepResult
  }
  const prepared = await Promise.all(request.requests.map((input) => request.prepare(input)))
  const first = prepared[0]
  if (first && !first.hasFunds)
    throw insufficientBalance('ethereum', request.address, { balance: first.balance })
  try {
    return await submitAll(prepared)
  } catch (error) {
    if (!(error instanceof LatchkeyError && error.code === 'RECOVERY_REQUIRED' && request.recovery))
      throw error
    await openConnectWallet(instance, request.recovery)
    return submitAll(prepared)
  }
}
