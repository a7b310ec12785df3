import type { SiwsSignInInput } from '@latchkey/protocol'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64, base64nopad } from '@scure/base'
import { parseSignInMessageText } from '@solana/wallet-standard-util'
import { walletLoginFailed } from '../siwe/external-wallet.ts'
import { memoText, parseSolanaTransaction } from './transaction.ts'

/*
 * Sign-In With Solana checks (security bar 20): the signed message must be
 * exactly the sign-in input the server built at init, and carry an Ed25519
 * signature of the address's key — over the message text (`plain`), or over
 * a transaction whose memo is that text (`transaction`, Ledger).
 */

/** The 32-byte Ed25519 public key a base58 address is; null when it is not one. */
export function solanaPublicKey(address: string): Uint8Array | null {
  try {
    const key = base58.decode(address)
    return key.length === 32 ? key : null
  } catch {
    return null
  }
}

const decodeWith = (coder: { decode(text: string): Uint8Array }, text: string) => {
  try {
    const bytes = coder.decode(text)
    return bytes.length === 64 ? [bytes] : []
  } catch {
    return []
  }
}

/**
 * The 64-byte signature, from base64 (padded or not) or base58. Both
 * readings are kept when both decode: the signature check then tries each.
 */
export function decodeSiwsSignature(text: string): Uint8Array[] {
  const candidates = [
    ...decodeWith(base64, text),
    ...decodeWith(base64nopad, text),
    ...decodeWith(base58, text),
  ]
  if (candidates.length === 0) throw walletLoginFailed('malformed_signature')
  return candidates
}

/** What was signed: the sign-in text, and the bytes the signature is over. */
export interface SiwsSignedPayload {
  text: string
  signedBytes: Uint8Array
  /** `transaction`: the keys that must sign it. */
  signers?: string[]
}

/**
 * Reads the request's `message`: the text itself (`plain`), or a base64
 * serialized transaction whose memo is the text (`transaction`).
 * WALLET_LOGIN_FAILED `malformed_transaction` when it can not be read.
 */
export function siwsSignedPayload(
  message: string,
  messageType: 'plain' | 'transaction',
): SiwsSignedPayload {
  if (messageType === 'plain')
    return { text: message, signedBytes: new TextEncoder().encode(message) }
  try {
    const transaction = parseSolanaTransaction(base64.decode(message))
    return {
      text: memoText(transaction),
      signedBytes: transaction.message,
      signers: transaction.signers,
    }
  } catch {
    // Not base64, or not a transaction with one UTF-8 memo (SolanaTransactionError).
    throw walletLoginFailed('malformed_transaction')
  }
}

/** The parsed fields of a sign-in message; WALLET_LOGIN_FAILED `malformed_message` when it is not one. */
export function parseSiwsMessage(text: string) {
  const parsed = parseSignInMessageText(text)
  if (!parsed) throw walletLoginFailed('malformed_message')
  return parsed
}

type ParsedSiwsMessage = ReturnType<typeof parseSiwsMessage>

/** Every field of the input against the message's, and no field the input does not have. */
const SIGNED_FIELDS: ReadonlyArray<[keyof SiwsSignInInput, keyof ParsedSiwsMessage]> = [
  ['domain', 'domain'],
  ['address', 'address'],
  ['statement', 'statement'],
  ['uri', 'uri'],
  ['version', 'version'],
  ['chain_id', 'chainId'],
  ['nonce', 'nonce'],
  ['issued_at', 'issuedAt'],
  ['expiration_time', 'expirationTime'],
]

/**
 * WALLET_LOGIN_FAILED `signed_field_mismatch` (details `field`) unless the
 * message repeats the server's sign-in input field for field, with no
 * not-before, request id or resources the server did not ask for.
 */
export function assertSignedFieldsEqual(
  parsed: ParsedSiwsMessage,
  expected: SiwsSignInInput,
): void {
  for (const [inputField, messageField] of SIGNED_FIELDS)
    if (parsed[messageField] !== expected[inputField])
      throw walletLoginFailed('signed_field_mismatch', { field: inputField })
  for (const extra of ['notBefore', 'requestId', 'resources'] as const)
    if (parsed[extra] !== undefined)
      throw walletLoginFailed('signed_field_mismatch', { field: extra })
}

/**
 * WALLET_LOGIN_FAILED `invalid_signature` unless one of the signature's
 * readings is a valid Ed25519 signature of `signedBytes` by `address`
 * (RFC 8032 strict, not ZIP-215).
 */
export function assertSiwsSignature(
  signatures: Uint8Array[],
  signedBytes: Uint8Array,
  address: string,
): void {
  const publicKey = solanaPublicKey(address)
  const valid =
    publicKey !== null &&
    signatures.some((signature) => {
      try {
        return ed25519.verify(signature, signedBytes, publicKey, { zip215: false })
      } catch {
        return false
      }
    })
  if (!valid) throw walletLoginFailed('invalid_signature')
}
