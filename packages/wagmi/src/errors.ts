import {
  ChainDisconnectedError,
  ProviderDisconnectedError,
  ResourceUnavailableRpcError,
  SwitchChainError,
  UnauthorizedProviderError,
  UnsupportedProviderMethodError,
  UserRejectedRequestError,
} from 'viem'
import { ChainNotConfiguredError } from 'wagmi'

// Wallet errors are translated here, once (docs/wagmi.md "Errors"): what a
// Latchkey wallet throws becomes what wagmi's actions and hooks document.

/** Latchkey codes that mean "the user said no" (the confirm screen closed, MFA cancelled). */
const REJECTION_CODES = new Set([
  'WALLET_USER_REJECTED',
  'MFA_CANCELED',
  'EMBEDDED_WALLET_CONNECT_EXITED',
  'RECOVERY_EXITED',
])

/** An EIP-1193 error with its numeric code, as viem's transports expect from a provider. */
export class LatchkeyProviderRpcError extends Error {
  override name = 'LatchkeyProviderRpcError' as const
  constructor(
    readonly code: number,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

const codeOf = (error: unknown): unknown => (error as { code?: unknown } | null)?.code

/**
 * A wallet provider's failure as EIP-1193 sees it: Latchkey's own rejection
 * codes become 4001 (so viem, under wagmi's actions, raises
 * UserRejectedRequestError); anything else passes through unchanged.
 */
export function toProviderError(error: unknown): unknown {
  const code = codeOf(error)
  if (typeof code === 'string' && REJECTION_CODES.has(code))
    return new LatchkeyProviderRpcError(UserRejectedRequestError.code, (error as Error).message, {
      cause: error,
    })
  return error
}

/**
 * A failure of the connector's own calls (connect, switchChain) as the viem
 * error wagmi documents for it: 4001 UserRejectedRequestError, -32002
 * ResourceUnavailableRpcError, 4100, 4200, 4900, 4901; other errors as is.
 */
export function toConnectorError(error: unknown): Error {
  const mapped = toProviderError(error)
  const cause = mapped instanceof Error ? mapped : new Error(String(mapped))
  switch (codeOf(mapped)) {
    case UserRejectedRequestError.code:
      return new UserRejectedRequestError(cause)
    case ResourceUnavailableRpcError.code:
      return new ResourceUnavailableRpcError(cause)
    case UnauthorizedProviderError.code:
      return new UnauthorizedProviderError(cause)
    case UnsupportedProviderMethodError.code:
      return new UnsupportedProviderMethodError(cause)
    case ProviderDisconnectedError.code:
      return new ProviderDisconnectedError(cause)
    case ChainDisconnectedError.code:
      return new ChainDisconnectedError(cause)
    default:
      return cause
  }
}

/**
 * A failed switch: the user's refusal stays UserRejectedRequestError; a chain
 * the wallet does not know (4902) and every other failure become
 * SwitchChainError, with the wallet's error as its cause.
 */
export function toSwitchChainError(error: unknown): Error {
  const mapped = toConnectorError(error)
  if (mapped instanceof UserRejectedRequestError || mapped instanceof SwitchChainError)
    return mapped
  return new SwitchChainError(mapped)
}

/**
 * wagmi's config does not list the chain: fails before the wallet is asked
 * (its cause chain holds wagmi's ChainNotConfiguredError).
 */
export const chainNotConfigured = (chainId: number) =>
  new SwitchChainError(
    new Error(`Chain ${chainId} is not one of the wagmi config's chains.`, {
      cause: new ChainNotConfiguredError(),
    }),
  )

/** The wallet does not know the chain (4902, or MetaMask Mobile's wrapped 4902). */
export const isUnknownChain = (error: unknown) =>
  codeOf(error) === SwitchChainError.code ||
  (error as { data?: { originalError?: { code?: unknown } } } | null)?.data?.originalError?.code ===
    SwitchChainError.code
