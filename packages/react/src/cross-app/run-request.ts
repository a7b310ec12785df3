import type { CrossAppPageRequest } from '@latchkey/core'
import type { EthereumTransactionInput } from '@latchkey/core/transactions'
import type { UseSendTransactionReturnType } from '../hooks/useSendTransaction.ts'
import type { UseSignMessageReturnType } from '../hooks/useSignMessage.ts'
import type { UseSignTypedDataReturnType } from '../hooks/useSignTypedData.ts'
import type { TypedData } from '../wallet-requests.ts'

type Transact = Extract<CrossAppPageRequest, { kind: 'transact' }>

export interface ProviderSigners {
  signMessage: UseSignMessageReturnType['signMessage']
  signTypedData: UseSignTypedDataReturnType['signTypedData']
  sendTransaction: UseSendTransactionReturnType['sendTransaction']
}

/** The wallet a transact request names (its `address` parameter). */
export function addressOf(request: Transact['request']): string {
  if (request.method === 'personal_sign') return request.params[1]
  if (request.method === 'eth_signTypedData_v4') return request.params[0]
  return String(request.params[0].from ?? '')
}

const hexToUtf8 = (hex: string) => {
  const body = hex.replace(/^0x/, '')
  if (!/^([0-9a-fA-F]{2})*$/.test(body)) return hex
  const bytes = Uint8Array.from(body.match(/../g) ?? [], (b) => Number.parseInt(b, 16))
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
}

const big = (v: unknown) => (v === undefined || v === null ? undefined : BigInt(v as string))
const num = (v: unknown) => (v === undefined || v === null ? undefined : Number(v))

/** A JSON-RPC transaction object as the confirm screen takes it. */
function toTransactionInput(tx: Record<string, unknown>): EthereumTransactionInput {
  return {
    chainId: num(tx.chainId),
    to: (tx.to as EthereumTransactionInput['to']) ?? undefined,
    data: (tx.data as EthereumTransactionInput['data']) ?? undefined,
    value: big(tx.value),
    nonce: num(tx.nonce),
    gas: big(tx.gas),
    maxFeePerGas: big(tx.maxFeePerGas),
    maxPriorityFeePerGas: big(tx.maxPriorityFeePerGas),
    gasPrice: big(tx.gasPrice),
  }
}

/**
 * Runs a requester's wallet request with the provider's own confirmation
 * screens (the sign screen, the transaction screen): the key stays in the
 * provider's enclave. Resolves with the signature or the transaction hash.
 */
export async function runCrossAppRequest(
  signers: ProviderSigners,
  request: Transact['request'],
): Promise<string> {
  const address = addressOf(request)
  if (request.method === 'personal_sign') {
    const { signature } = await signers.signMessage(
      { message: hexToUtf8(request.params[0]) },
      { address },
    )
    return signature
  }
  if (request.method === 'eth_signTypedData_v4') {
    const raw = request.params[1]
    const typedData = (typeof raw === 'string' ? JSON.parse(raw) : raw) as TypedData
    const { signature } = await signers.signTypedData(typedData, { address })
    return signature
  }
  const { hash } = await signers.sendTransaction(toTransactionInput(request.params[0]), { address })
  return hash
}
