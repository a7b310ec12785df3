// The JSON-RPC errors of the smart-wallet RPC route (docs/smart-wallets.md
// "The RPC route"). The numeric code is JSON-RPC's (EIP-1474 for the -3200x
// range); `data.code` is Latchkey's stable UPPER_SNAKE code, the one clients
// switch on.

/** What `data.code` may be. */
export type SmartWalletRpcErrorCode =
  | 'INVALID_PARAMS'
  | 'METHOD_NOT_FOUND'
  | 'SMART_WALLET_CHAIN_NOT_CONFIGURED'
  | 'SMART_WALLET_NOT_SPONSORED'
  | 'SMART_WALLET_SENDER_NOT_OWNED'
  | 'SPONSORSHIP_CONTRACT_NOT_ALLOWED'
  | 'SPONSORSHIP_DELEGATE_NOT_ALLOWED'
  | 'SPONSORSHIP_DAILY_CAP_REACHED'
  | 'SPONSORSHIP_GAS_PRICE_TOO_HIGH'
  | 'SPONSORSHIP_UNAVAILABLE'
  | 'ENTRY_POINT_NOT_SUPPORTED'
  | 'BUNDLER_UNAVAILABLE'
  | 'PAYMASTER_UNAVAILABLE'

/** JSON-RPC code of each: -32602 invalid params, -32601 method not found, -32001 resource not found, -32003 rejected, -32005 limit exceeded, -32002 unavailable. */
const RPC_CODES: Record<SmartWalletRpcErrorCode, number> = {
  INVALID_PARAMS: -32602,
  METHOD_NOT_FOUND: -32601,
  SMART_WALLET_CHAIN_NOT_CONFIGURED: -32001,
  SMART_WALLET_NOT_SPONSORED: -32001,
  SMART_WALLET_SENDER_NOT_OWNED: -32003,
  SPONSORSHIP_CONTRACT_NOT_ALLOWED: -32003,
  SPONSORSHIP_DELEGATE_NOT_ALLOWED: -32003,
  SPONSORSHIP_DAILY_CAP_REACHED: -32005,
  SPONSORSHIP_GAS_PRICE_TOO_HIGH: -32003,
  SPONSORSHIP_UNAVAILABLE: -32002,
  ENTRY_POINT_NOT_SUPPORTED: -32602,
  BUNDLER_UNAVAILABLE: -32002,
  PAYMASTER_UNAVAILABLE: -32002,
}

/** The error object of a JSON-RPC answer. */
export interface JsonRpcErrorObject {
  code: number
  message: string
  data?: unknown
}

/** A refusal the route answers as a JSON-RPC error (HTTP 200). */
export class SmartWalletRpcError extends Error {
  override name = 'SmartWalletRpcError' as const
  constructor(
    readonly code: SmartWalletRpcErrorCode,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message)
  }

  toJsonRpc(): JsonRpcErrorObject {
    return {
      code: RPC_CODES[this.code],
      message: this.message,
      data: { code: this.code, ...(this.details ?? {}) },
    }
  }
}
