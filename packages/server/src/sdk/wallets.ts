import type {
  RpcEthereumTransaction,
  WalletRpcRequest,
  WalletRpcResponse,
} from '@latchkey/protocol'
import { routes } from '@latchkey/protocol/routes'

/*
 * Delegated wallets in the server SDK (docs/delegated-actions.md "Server
 * API"): `POST /api/v1/wallets/:wallet_id/rpc` under the app secret, for a
 * wallet its user delegated. The wallet id is the one `getUserWallets`
 * returns (`AppWallet.id`).
 */

type Call = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => Promise<T>
type Hex = `0x${string}`
type DataOf<M extends WalletRpcResponse['method']> = Extract<
  WalletRpcResponse,
  { method: M }
>['data']

/** An Ethereum transaction for `signTransaction`/`sendTransaction`: CAIP-2 chain and the fields. */
export interface DelegatedTransactionInput {
  /** `eip155:<chain id>`. */
  caip2: `eip155:${number}`
  /** Missing nonce, gas and fees are filled by the server from the chain's RPC. */
  transaction: RpcEthereumTransaction
}

/** `latchkey.wallets`: signing with wallets users delegated to the app. */
export interface DelegatedWallets {
  /** Any RPC request; the raw answer (`{ method, data }`). */
  rpc(walletId: string, request: WalletRpcRequest): Promise<WalletRpcResponse>
  ethereum: {
    /** personal_sign: a UTF-8 string, or `{ raw: '0x…' }` bytes; the 65-byte signature, hex. */
    signMessage(walletId: string, message: string | { raw: Hex }): Promise<Hex>
    /** eth_signTypedData_v4 (`primary_type` as Privy names it). */
    signTypedData(
      walletId: string,
      typedData: Extract<
        WalletRpcRequest,
        { method: 'eth_signTypedData_v4' }
      >['params']['typed_data'],
    ): Promise<Hex>
    /** eth_signTransaction: the signed, serialized transaction (RLP hex); not sent. */
    signTransaction(walletId: string, input: DelegatedTransactionInput): Promise<Hex>
    /** eth_sendTransaction: signs and broadcasts; the transaction hash. */
    sendTransaction(
      walletId: string,
      input: DelegatedTransactionInput,
    ): Promise<{ hash: Hex; caip2: string }>
  }
  solana: {
    /** signMessage: the 64-byte ed25519 signature of the bytes. */
    signMessage(walletId: string, message: Uint8Array): Promise<Uint8Array>
    /** signTransaction: the wire transaction with the wallet's signature in its slot. */
    signTransaction(walletId: string, transaction: Uint8Array): Promise<Uint8Array>
  }
}

export function delegatedWallets(call: Call): DelegatedWallets {
  const rpc = (walletId: string, request: WalletRpcRequest) =>
    call<WalletRpcResponse>('POST', routes.walletRpc(encodeURIComponent(walletId)), request)
  const data = async <M extends WalletRpcResponse['method']>(
    walletId: string,
    request: WalletRpcRequest & { method: M },
  ) => (await rpc(walletId, request)).data as DataOf<M>
  const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64')
  const bytes = (text: string) => new Uint8Array(Buffer.from(text, 'base64'))
  return {
    rpc,
    ethereum: {
      async signMessage(walletId, message) {
        const params =
          typeof message === 'string'
            ? { message }
            : { message: message.raw, encoding: 'hex' as const }
        return (await data(walletId, { method: 'personal_sign', params })).signature as Hex
      },
      async signTypedData(walletId, typedData) {
        const params = { typed_data: typedData }
        return (await data(walletId, { method: 'eth_signTypedData_v4', params })).signature as Hex
      },
      async signTransaction(walletId, { caip2, transaction }) {
        const request = { method: 'eth_signTransaction' as const, caip2, params: { transaction } }
        return (await data(walletId, request)).signed_transaction as Hex
      },
      async sendTransaction(walletId, { caip2, transaction }) {
        const request = { method: 'eth_sendTransaction' as const, caip2, params: { transaction } }
        const sent = await data(walletId, request)
        return { hash: sent.hash as Hex, caip2: sent.caip2 }
      },
    },
    solana: {
      async signMessage(walletId, message) {
        const params = { message: base64(message), encoding: 'base64' as const }
        return bytes((await data(walletId, { method: 'signMessage', params })).signature)
      },
      async signTransaction(walletId, transaction) {
        const params = { transaction: base64(transaction), encoding: 'base64' as const }
        return bytes(
          (await data(walletId, { method: 'signTransaction', params })).signed_transaction,
        )
      },
    },
  }
}
