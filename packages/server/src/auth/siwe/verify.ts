import { formatUserMessage, SIGN_IN_ISSUED_AT_SKEW_MS } from '@latchkey/protocol'
import {
  type Address,
  createPublicClient,
  getAddress,
  type Hex,
  http,
  verifyMessage as verifyEoaMessage,
} from 'viem'
import { parseSiweMessage } from 'viem/siwe'
import { ApiError } from '../../errors.ts'
import { walletLoginFailed } from './external-wallet.ts'

/*
 * Sign-In With Ethereum (EIP-4361) checks: the message, then its signature.
 * The message checks are pure (the clock is a parameter); the signature is
 * verified per ERC-191 for EOAs and, through the chain's RPC endpoint, per
 * ERC-1271 (deployed contract accounts) and ERC-6492 (counterfactual ones).
 */

const DATE_TIME = '\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d+)?(?:Z|[+-]\\d{2}:\\d{2})'

/**
 * The whole message per the EIP-4361 ABNF, anchored: viem's parser is
 * lenient (its field patterns are unanchored), so a message with stray or
 * repeated lines is refused here before any field is read. Without a
 * statement the ABNF (and viem) leave two blank lines; one is accepted too,
 * as some older clients write it.
 */
const SIWE_GRAMMAR = new RegExp(
  [
    '^(?:[a-zA-Z][a-zA-Z0-9+.-]*://)?[^\\s/?#]+ wants you to sign in with your Ethereum account:\\n',
    '0x[0-9a-fA-F]{40}\\n\\n',
    '(?:[^\\n]+\\n\\n|\\n)?',
    'URI: \\S+\\n',
    'Version: 1\\n',
    'Chain ID: [1-9]\\d{0,15}\\n',
    'Nonce: [a-zA-Z0-9]{8,}\\n',
    `Issued At: ${DATE_TIME}`,
    `(?:\\nExpiration Time: ${DATE_TIME})?`,
    `(?:\\nNot Before: ${DATE_TIME})?`,
    '(?:\\nRequest ID: [^\\n]*)?',
    '(?:\\nResources:(?:\\n- \\S+)*)?$',
  ].join(''),
)

/** What the message is checked against. */
export interface SiweExpectations {
  /** The request's Origin (one of the app's origins). */
  origin: URL
  /** Chain ids the app accepts. */
  chainIds: readonly number[]
  /** The chain the wallet says it signed on (`eip155:N`), when sent. */
  requestChainId?: string | undefined
  /** Epoch ms. */
  now: number
}

/** The fields of a message that passed {@link checkSiweMessage}. */
export interface CheckedSiweMessage {
  /** EIP-55 checksummed. */
  address: Address
  chainId: number
  nonce: string
  domain: string
  uri: string
  issuedAt: Date
}

const validDate = (date: Date | undefined): date is Date =>
  date !== undefined && !Number.isNaN(date.getTime())

function sameOrigin(uri: string, origin: URL): boolean {
  try {
    return new URL(uri).origin === origin.origin
  } catch {
    return false
  }
}

/**
 * Checks an EIP-4361 message against the request (security bars 16, 18,
 * 19): grammar and required fields; domain = the Origin's host and URI of
 * the same origin; the chain id the app's and the wallet's; expiration
 * time not passed, not-before reached, issued-at within
 * ±SIGN_IN_ISSUED_AT_SKEW_MS. Throws WALLET_LOGIN_FAILED with a `reason`
 * (UNSUPPORTED_CHAIN for a chain the app does not accept).
 *
 * @example
 * const checked = checkSiweMessage(body.message, { origin, chainIds: [1, 8453], now: services.now() })
 */
export function checkSiweMessage(message: string, expect: SiweExpectations): CheckedSiweMessage {
  if (!SIWE_GRAMMAR.test(message)) throw walletLoginFailed('malformed_message')
  const parsed = parseSiweMessage(message)
  const { address, chainId, domain, nonce, uri, issuedAt } = parsed
  if (!address || !chainId || !domain || !nonce || !uri || parsed.version !== '1')
    throw walletLoginFailed('malformed_message')
  if (!validDate(issuedAt)) throw walletLoginFailed('malformed_message')
  for (const date of [parsed.expirationTime, parsed.notBefore])
    if (date !== undefined && !validDate(date)) throw walletLoginFailed('malformed_message')

  // EIP-4361 §"Verifying": the domain (and scheme, when given) is the requester's.
  if (domain !== expect.origin.host) throw walletLoginFailed('domain_mismatch')
  if (parsed.scheme !== undefined && `${parsed.scheme}:` !== expect.origin.protocol)
    throw walletLoginFailed('domain_mismatch')
  if (!sameOrigin(uri, expect.origin)) throw walletLoginFailed('uri_mismatch')

  if (expect.requestChainId !== undefined && expect.requestChainId !== `eip155:${chainId}`)
    throw walletLoginFailed('chain_id_mismatch')
  if (!expect.chainIds.includes(chainId))
    throw new ApiError(
      'UNSUPPORTED_CHAIN',
      formatUserMessage('UNSUPPORTED_CHAIN', { id: String(chainId) }).title,
      { id: chainId },
    )

  // An expiration time in the past fails on its own, not-before or not.
  if (parsed.expirationTime && parsed.expirationTime.getTime() <= expect.now)
    throw walletLoginFailed('expired')
  if (parsed.notBefore && parsed.notBefore.getTime() > expect.now)
    throw walletLoginFailed('not_yet_valid')
  if (Math.abs(issuedAt.getTime() - expect.now) > SIGN_IN_ISSUED_AT_SKEW_MS)
    throw walletLoginFailed('issued_at_out_of_window')

  return { address: getAddress(address), chainId, nonce, domain, uri, issuedAt }
}

/** How long one RPC call of a smart-account verification may take. */
export const SIWE_RPC_TIMEOUT_MS = 10_000

/** An ECDSA signature: 65 bytes, or 64 (EIP-2098 compact). */
const isEcdsaSignature = (signature: Hex) => signature.length === 132 || signature.length === 130

export interface SiweSignatureInput {
  message: string
  address: Address
  signature: Hex
  /** The message's chain id. */
  chainId: number
  /** JSON-RPC endpoint of that chain; without one only EOAs verify. */
  rpcUrl?: string | undefined
}

/** Chain id each endpoint answered once (an endpoint does not change chains). */
const endpointChainIds = new Map<string, number>()

/** True when the EOA `address` signed the message (ERC-191 recovery, no I/O). */
async function signedByEoa(input: SiweSignatureInput): Promise<boolean> {
  if (!isEcdsaSignature(input.signature)) return false
  try {
    const { address, message, signature } = input
    return await verifyEoaMessage({ address, message, signature })
  } catch {
    return false // A malformed signature recovers nothing.
  }
}

/** A public client of `rpcUrl`, checked once to serve `chainId` (a misconfigured URL fails). */
async function chainClient(rpcUrl: string, chainId: number) {
  const client = createPublicClient({
    transport: http(rpcUrl, { timeout: SIWE_RPC_TIMEOUT_MS, retryCount: 1 }),
  })
  if (endpointChainIds.get(rpcUrl) !== chainId) {
    const served = await client.getChainId()
    if (served !== chainId) throw new Error(`The endpoint serves chain ${served}`)
    endpointChainIds.set(rpcUrl, served)
  }
  return client
}

/**
 * Verifies the signature over the message's EIP-191 hash: by ECDSA recovery
 * (an EOA, no I/O); failing that, through the chain's RPC endpoint with
 * viem's public-client `verifyMessage`, which asks a deployed contract
 * (ERC-1271) or simulates a counterfactual one's deployment (ERC-6492,
 * deployless validator, one `eth_call`). Throws WALLET_LOGIN_FAILED:
 * `invalid_signature`, `rpc_required` (a smart-account signature on a chain
 * without an endpoint) or `rpc_error` (the endpoint failed, or serves
 * another chain).
 *
 * @example
 * await verifySiweSignature({ message, address, signature, chainId: 8453, rpcUrl })
 */
export async function verifySiweSignature(input: SiweSignatureInput): Promise<void> {
  const { message, address, signature, chainId, rpcUrl } = input
  if (signature.length % 2 !== 0) throw walletLoginFailed('invalid_signature')
  if (await signedByEoa(input)) return
  if (!rpcUrl)
    throw walletLoginFailed(isEcdsaSignature(signature) ? 'invalid_signature' : 'rpc_required')
  let valid: boolean
  try {
    const client = await chainClient(rpcUrl, chainId)
    valid = await client.verifyMessage({ address, message, signature })
  } catch {
    throw walletLoginFailed('rpc_error')
  }
  // viem reports a failed eth_call (revert or transport) as false.
  if (!valid) throw walletLoginFailed('invalid_signature')
}
