import {
  type AuthMode,
  type AuthResponse,
  type ConnectorType,
  SIWS_CHAIN_ID,
  type SiwsInitRequest,
  type SiwsInitResponse,
  type SiwsSignInInput,
  siwsSignInInputSchema,
  type UserWire,
} from '@latchkey/protocol'
import type { AppRecord } from '../../apps/service.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import {
  type AccountInput,
  findAccount,
  SIWS_ACCOUNT_TYPE,
  WALLET_ACCOUNT_TYPE,
} from '../../users/service.ts'
import {
  appOrigin,
  assertWalletLoginAllowed,
  linkExternalWallet,
  loginWithExternalWallet,
  unlinkExternalWallet,
  walletLoginFailed,
} from '../siwe/external-wallet.ts'
import {
  consumeNonce,
  findUsableNonce,
  type IssuedNonce,
  limitSignInInit,
  newIssuedNonce,
  storeSignInNonce,
} from '../siwe/nonces.ts'
import {
  assertSignedFieldsEqual,
  assertSiwsSignature,
  decodeSiwsSignature,
  parseSiwsMessage,
  siwsSignedPayload,
  solanaPublicKey,
} from './verify.ts'

/*
 * Sign-In With Solana, server side (docs/login-wallets.md, spec 01 §7): init
 * builds the sign-in input from the caller's origin and stores it with the
 * nonce; authenticate / link require the signed message to repeat it field
 * for field (verify.ts), spend the nonce and log in or link the `siws`
 * account (identifier = base58 address).
 */

/** A signed sign-in message as authenticate and link receive it. */
export interface SiwsProof {
  message: string
  signature: string
  message_type: 'plain' | 'transaction'
  wallet_client_type: string
  connector_type: ConnectorType
}

/**
 * What the wallet will be asked to sign: domain and URI of the caller's
 * origin, Solana mainnet, the nonce, issued now and expiring with the nonce.
 */
export function buildSiwsSignInInput(
  app: AppRecord,
  origin: URL,
  address: string,
  issued: IssuedNonce,
): SiwsSignInInput {
  // One line: a statement can not hold a line break (it would end the field).
  const name = app.name.replace(/\s+/g, ' ').trim()
  return {
    domain: origin.host,
    address,
    statement: `Sign in to ${name}`,
    uri: origin.origin,
    version: '1',
    chain_id: SIWS_CHAIN_ID,
    nonce: issued.nonce,
    issued_at: new Date(issued.issuedAt).toISOString(),
    expiration_time: new Date(issued.expiresAt).toISOString(),
  }
}

/**
 * Issues a single-use nonce for `address` and the sign-in input its
 * message must repeat (security bars 17, 20); rate-limited per IP.
 *
 * @example
 * const { sign_in_input } = await initSiws(services, app, origin, { address }, ip)
 * // the client passes sign_in_input to the wallet's solana:signIn
 */
export async function initSiws(
  services: Services,
  app: AppRecord,
  origin: string | undefined,
  input: SiwsInitRequest,
  ip: string | undefined,
): Promise<SiwsInitResponse> {
  assertWalletLoginAllowed(app)
  const requestOrigin = appOrigin(app, origin)
  if (!solanaPublicKey(input.address))
    throw new ApiError('INVALID_PAYLOAD', 'The address is not a base58 Ed25519 public key')
  await limitSignInInit(services, app.id, ip)
  const issued = newIssuedNonce(services)
  const signInInput = buildSiwsSignInInput(app, requestOrigin, input.address, issued)
  await storeSignInNonce(services, app.id, 'solana', input.address, issued, signInInput)
  return {
    nonce: issued.nonce,
    address: input.address,
    expires_at: issued.expiresAt,
    sign_in_input: signInInput,
  }
}

/** Checks message, nonce and signature, then spends the nonce: the proven account. */
async function verifiedAccount(
  services: Services,
  app: AppRecord,
  origin: string | undefined,
  proof: SiwsProof,
): Promise<AccountInput> {
  assertWalletLoginAllowed(app)
  const requestOrigin = appOrigin(app, origin)
  const signatures = decodeSiwsSignature(proof.signature)
  const payload = siwsSignedPayload(proof.message, proof.message_type)
  const parsed = parseSiwsMessage(payload.text)
  const now = services.now()
  const row = await findUsableNonce(
    services.db,
    app.id,
    'solana',
    parsed.nonce ?? '',
    parsed.address,
    now,
  )
  const stored = siwsSignInInputSchema.safeParse(JSON.parse(row.sign_in_input ?? 'null'))
  if (!stored.success) throw walletLoginFailed('nonce_unknown')
  // The nonce was issued to this origin; a page of another origin can not spend it.
  if (stored.data.uri !== requestOrigin.origin) throw walletLoginFailed('origin_mismatch')
  assertSignedFieldsEqual(parsed, stored.data)
  if (payload.signers && !payload.signers.includes(parsed.address))
    throw walletLoginFailed('invalid_signature')
  assertSiwsSignature(signatures, payload.signedBytes, parsed.address)
  // Spec 03 §8: 'Cannot login or link with an embedded Solana wallet' (the reason stays for logs).
  if (await findAccount(services.db, app.id, WALLET_ACCOUNT_TYPE, parsed.address))
    throw new ApiError('EMBEDDED_SOLANA_WALLET_LOGIN', undefined, { reason: 'embedded_wallet' })
  await consumeNonce(services.db, row.nonce, services.now())
  return {
    type: SIWS_ACCOUNT_TYPE,
    identifier: parsed.address,
    data: {
      address: parsed.address,
      wallet_client_type: proof.wallet_client_type,
      connector_type: proof.connector_type,
    },
  }
}

/** Logs in (or signs up) with a signed Solana sign-in message (spec 01 §4 "Wallet"). */
export async function authenticateWithSiws(
  services: Services,
  app: AppRecord,
  origin: string | undefined,
  input: SiwsProof & { mode: AuthMode },
): Promise<AuthResponse> {
  const account = await verifiedAccount(services, app, origin, input)
  return loginWithExternalWallet(services, app, account, input.mode)
}

/** Links the signing Solana wallet to the signed-in user (one per user). */
export async function linkSiws(
  services: Services,
  app: AppRecord,
  userId: string,
  origin: string | undefined,
  proof: SiwsProof,
): Promise<UserWire> {
  const account = await verifiedAccount(services, app, origin, proof)
  return linkExternalWallet(services, app, userId, account)
}

/** Removes a Solana wallet from the signed-in user, who must keep one login method. */
export async function unlinkSiws(
  services: Services,
  app: AppRecord,
  userId: string,
  address: string,
): Promise<UserWire> {
  assertWalletLoginAllowed(app)
  // Spec 03 §8: the user's own embedded Solana wallet is named as such, not "not linked".
  const embedded = await findAccount(services.db, app.id, WALLET_ACCOUNT_TYPE, address)
  if (embedded?.user_id === userId) throw new ApiError('EMBEDDED_SOLANA_WALLET_UNLINK')
  return unlinkExternalWallet(services, app, userId, SIWS_ACCOUNT_TYPE, address)
}
