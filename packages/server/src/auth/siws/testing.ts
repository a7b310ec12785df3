import { randomBytes } from 'node:crypto'
import { routes, type SiwsSignInInput } from '@latchkey/protocol'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { createSignInMessageText } from '@solana/wallet-standard-util'
import type { TestInstance, TestResponse } from '../../test/instance.ts'
import { TEST_ORIGIN } from '../../test/origin.ts'
import { MEMO_PROGRAM_IDS } from './transaction.ts'

/** Wallet Standard's sign-in fields (camelCase), as the message text writes them. */
export type SignInMessageFields = Parameters<typeof createSignInMessageText>[0]

/** A Solana wallet's Ed25519 key pair. */
export interface SolanaKeypair {
  address: string
  sign(bytes: Uint8Array): Uint8Array
}

export function solanaKeypair(): SolanaKeypair {
  const secretKey = ed25519.utils.randomSecretKey()
  return {
    address: base58.encode(ed25519.getPublicKey(secretKey)),
    sign: (bytes) => ed25519.sign(bytes, secretKey),
  }
}

/** POST /siws/init from `origin` (default TEST_ORIGIN): the sign-in input to sign. */
export async function siwsInit(
  t: TestInstance,
  address: string,
  options: { appId?: string; origin?: string } = {},
): Promise<SiwsSignInInput> {
  const res = await t.request(routes.siwsInit, {
    body: { address },
    origin: options.origin ?? TEST_ORIGIN,
    ...(options.appId ? { appId: options.appId } : {}),
  })
  if (res.status !== 200) throw new Error(`siws init failed: ${JSON.stringify(res.body)}`)
  return res.body.sign_in_input
}

/** The message text a wallet writes for `input` (Wallet Standard's format), fields overridable. */
export function signInText(
  input: SiwsSignInInput,
  fields: Partial<SignInMessageFields> = {},
): string {
  return createSignInMessageText({
    domain: input.domain,
    address: input.address,
    statement: input.statement,
    uri: input.uri,
    version: input.version,
    chainId: input.chain_id,
    nonce: input.nonce,
    issuedAt: input.issued_at,
    expirationTime: input.expiration_time,
    ...fields,
  })
}

export interface SiwsAttempt {
  /** Message fields to override. */
  fields?: Partial<SignInMessageFields>
  /** Request body fields to add or override. */
  body?: Record<string, unknown>
  /** Signature encoding (default base64). */
  encoding?: 'base64' | 'base58'
  /** Origin header (default TEST_ORIGIN; null for none). */
  origin?: string | null
  token?: string
  appId?: string
  /** Route (default siwsAuthenticate). */
  path?: string
}

/** init → sign the message text with `keypair` → authenticate (or `path`): the response. */
export async function siwsSignIn(
  t: TestInstance,
  keypair: SolanaKeypair,
  attempt: SiwsAttempt = {},
): Promise<TestResponse> {
  const input = await siwsInit(t, keypair.address, attempt.appId ? { appId: attempt.appId } : {})
  const message = signInText(input, attempt.fields)
  const signature = keypair.sign(new TextEncoder().encode(message))
  const encoded =
    attempt.encoding === 'base58' ? base58.encode(signature) : base64.encode(signature)
  return postSiws(t, { message, signature: encoded, ...attempt.body }, attempt)
}

/** Posts a SIWS body (wallet_client_type and connector_type filled in). */
export function postSiws(
  t: TestInstance,
  body: Record<string, unknown>,
  attempt: Omit<SiwsAttempt, 'fields' | 'body' | 'encoding'> = {},
): Promise<TestResponse> {
  return t.request(attempt.path ?? routes.siwsAuthenticate, {
    body: { wallet_client_type: 'phantom', connector_type: 'solana_adapter', ...body },
    origin: attempt.origin === undefined ? TEST_ORIGIN : attempt.origin,
    ...(attempt.token ? { token: attempt.token } : {}),
    ...(attempt.appId ? { appId: attempt.appId } : {}),
  })
}

/** Solana's compact-u16 length prefix. */
export function compactU16(value: number): number[] {
  const out: number[] = []
  let rest = value
  for (;;) {
    const byte = rest & 0x7f
    rest >>= 7
    if (rest === 0) {
      out.push(byte)
      return out
    }
    out.push(byte | 0x80)
  }
}

export interface MemoTransactionOptions {
  /** Fee payer and only signer. */
  payer: SolanaKeypair
  /** The memos' UTF-8 texts (one instruction each). */
  memos: string[]
  version?: 'legacy' | 0
  memoProgram?: string
}

/**
 * A signed transaction as a Ledger sign-in makes it: the payer signs a
 * message whose Memo instructions carry the texts. Serialized, base64.
 */
export function memoTransaction(options: MemoTransactionOptions): string {
  const { payer, memos, version = 'legacy' } = options
  const program = base58.decode(options.memoProgram ?? (MEMO_PROGRAM_IDS[0] as string))
  const message: number[] = []
  if (version === 0) message.push(0x80)
  // 1 signature, 0 read-only signed, 1 read-only unsigned (the memo program).
  message.push(1, 0, 1, ...compactU16(2), ...base58.decode(payer.address), ...program)
  message.push(...randomBytes(32)) // recent blockhash
  message.push(...compactU16(memos.length))
  for (const memo of memos) {
    const data = new TextEncoder().encode(memo)
    message.push(1, ...compactU16(1), 0, ...compactU16(data.length), ...data)
  }
  if (version === 0) message.push(...compactU16(0)) // no address table lookups
  const bytes = Uint8Array.from(message)
  const signature = payer.sign(bytes)
  return base64.encode(Uint8Array.from([...compactU16(1), ...signature, ...bytes]))
}
