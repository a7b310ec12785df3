import { Header } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import {
  type AddEmbeddedWalletRequest,
  type AuthShareResponse,
  authShareResponseSchema,
  type CloudOAuthResult,
  type CreateEmbeddedWalletsRequest,
  type DelegateWalletRequest,
  type DelegationKeyResponse,
  delegationKeyResponseSchema,
  type FarcasterSignerResponse,
  farcasterSignerResponseSchema,
  type MfaEnrollResponse,
  type MfaUnenrollRequest,
  type MfaVerification,
  type MfaVerifyRequest,
  mfaEnrollResponseSchema,
  mfaVerificationSchema,
  type PasskeyMfaEnrollRequest,
  type PasskeyMfaInitResponse,
  passkeyMfaInitResponseSchema,
  type RecoveryMaterial,
  type RecoveryOAuthAuthenticateResponse,
  recoveryMaterialResponseSchema,
  recoveryOAuthAuthenticateResponseSchema,
  type SetRecoveryRequest,
  type SmsMfaEnrollRequest,
  type SmsMfaInitRequest,
  successSchema,
  type TotpEnrollmentInitResponse,
  totpEnrollmentInitResponseSchema,
  type UserWire,
  userSchema,
  usersMeResponseSchema,
} from '@latchkey/protocol/schemas'
import { z } from 'zod'
import type { ProofSigner } from './device-key.ts'
import { PageError, serverError } from './errors.ts'

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>

/** The server's share-storage API, as the enclave calls it (same origin, bearer token, app id). */
export interface ServerApi {
  create(token: string, body: CreateEmbeddedWalletsRequest): Promise<UserWire>
  add(token: string, body: AddEmbeddedWalletRequest): Promise<UserWire>
  /** The auth share, and until when this session's MFA window lets the page keep the key. */
  authShare(token: string, entropyId: string): Promise<AuthShareResponse>
  recovery(token: string, entropyId: string): Promise<RecoveryMaterial>
  setRecovery(token: string, body: SetRecoveryRequest): Promise<UserWire>
  me(token: string): Promise<UserWire>
  /** Deletes the signed-in user, their wallets' server shares and every session of theirs. */
  deleteAccount(token: string): Promise<void>
  /**
   * Exchanges a cloud consent's result for the provider access (Google access
   * token, or iCloud web auth token + container): it stays in the enclave.
   */
  cloudAuthenticate(
    token: string,
    body: CloudOAuthResult,
  ): Promise<RecoveryOAuthAuthenticateResponse>
  /** MFA (docs/mfa.md): every one of these is an enclave route. */
  mfaTotpInit(token: string): Promise<TotpEnrollmentInitResponse>
  mfaTotpEnroll(token: string, code: string): Promise<MfaEnrollResponse>
  /** Sends an SMS code: to a phone being enrolled, or (`verify`) to the enrolled one. */
  mfaSmsInit(token: string, body: SmsMfaInitRequest): Promise<void>
  mfaSmsEnroll(token: string, body: SmsMfaEnrollRequest): Promise<MfaEnrollResponse>
  mfaPasskeyInit(token: string): Promise<PasskeyMfaInitResponse>
  mfaPasskeyEnroll(token: string, body: PasskeyMfaEnrollRequest): Promise<MfaEnrollResponse>
  mfaVerify(token: string, body: MfaVerifyRequest): Promise<MfaVerification>
  mfaUnenroll(token: string, body: MfaUnenrollRequest): Promise<UserWire>
  /** Ends this session's verification window on the server. */
  mfaClear(token: string): Promise<void>
  /** Starts (or reads) the Farcaster signed key request of this page's ed25519 key (an enclave route). */
  farcasterSignerInit(token: string, publicKey: string): Promise<FarcasterSignerResponse>
  /** The server's delegation public key (a public route: no token, no proof). */
  delegationKey(): Promise<DelegationKeyResponse>
  /** Hands the server a device share sealed to its delegation key (an enclave route, MFA). */
  delegate(token: string, body: DelegateWalletRequest): Promise<UserWire>
}

export interface ServerApiOptions {
  appId: string
  fetch?: FetchLike
  /** Prefix for paths (default '': same origin). */
  baseUrl?: string
  /**
   * Signs each request's proof with the enclave's device key; its compact JWS
   * goes in the `dpop` header (docs/security.md "Key routes answer only to
   * the enclave"). Without it, requests carry no proof.
   */
  proof?: ProofSigner
  /** The page's own origin, the start of each proof's `htu` (default `location.origin`). */
  origin?: string
}

/**
 * Calls the Latchkey server this page is served from: `fetch(path)` relative
 * to the page's own origin (CSP `connect-src 'self'`), with
 * `authorization: Bearer <the request's access token>`, the app id header
 * and, given a `proof` signer, a fresh proof of the enclave's device key.
 * Answers are schema-checked; errors become {@link PageError}s with the
 * server's code.
 *
 * @example
 * const key = loadPageDeviceKey(new IndexedDbDeviceKeyStore(), appId)
 * const api = createServerApi({ appId, proof: key.signProof })
 */
export function createServerApi(options: ServerApiOptions): ServerApi {
  const doFetch: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init))
  const base = options.baseUrl ?? ''
  const sign = options.proof
  const origin = options.origin ?? globalThis.location?.origin
  if (sign && !origin) throw new Error('createServerApi: proofs need the page origin')

  /** The proof for one request; a key that cannot sign fails the call before it is sent. */
  async function proofFor(method: string, url: string, token: string): Promise<string> {
    try {
      return await (sign as ProofSigner)({
        method,
        url: new URL(url, origin).href,
        accessToken: token,
      })
    } catch {
      throw new PageError('WALLET_PROXY_UNAVAILABLE', "The wallet's device key is not available")
    }
  }

  async function call<S extends z.ZodType>(
    method: 'GET' | 'POST',
    path: string,
    token: string | null,
    body: unknown,
    schema: S,
  ): Promise<z.output<S>> {
    const headers: Record<string, string> = {
      [Header.appId]: options.appId,
      accept: 'application/json',
    }
    // A public route (token null) gets neither the token nor a proof.
    if (token !== null) headers.authorization = `Bearer ${token}`
    if (body !== undefined) headers['content-type'] = 'application/json'
    const url = `${base}${path}`
    if (sign && token !== null) headers[Header.enclaveProof] = await proofFor(method, url, token)
    let res: Response
    try {
      res = await doFetch(url, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        cache: 'no-store',
        redirect: 'error',
        referrerPolicy: 'no-referrer',
      })
    } catch {
      throw new PageError('NETWORK_ERROR')
    }
    let json: unknown = null
    try {
      json = await res.json()
    } catch {}
    if (!res.ok) throw serverError(res.status, json)
    const parsed = schema.safeParse(json)
    if (!parsed.success) throw new PageError('INTERNAL_ERROR', 'Unexpected answer from the server')
    return parsed.data
  }

  return {
    create: (token, body) => call('POST', routes.embeddedWalletsCreate, token, body, userSchema),
    add: (token, body) => call('POST', routes.embeddedWalletsAdd, token, body, userSchema),
    authShare: (token, entropyId) =>
      call(
        'POST',
        routes.embeddedWalletsAuthShare,
        token,
        { entropy_id: entropyId },
        authShareResponseSchema,
      ),
    async recovery(token, entropyId) {
      const answer = await call(
        'POST',
        routes.embeddedWalletsRecovery,
        token,
        { entropy_id: entropyId },
        recoveryMaterialResponseSchema,
      )
      return answer.recovery
    },
    setRecovery: (token, body) =>
      call('POST', routes.embeddedWalletsSetRecovery, token, body, userSchema),
    async me(token) {
      const answer = await call('GET', routes.usersMe, token, undefined, usersMeResponseSchema)
      return answer.user
    },
    async deleteAccount(token) {
      await call('POST', routes.usersDelete, token, {}, successSchema)
    },
    cloudAuthenticate: (token, body) =>
      call(
        'POST',
        routes.recoveryOAuthAuthenticate,
        token,
        body,
        recoveryOAuthAuthenticateResponseSchema,
      ),
    mfaTotpInit: (token) =>
      call('POST', routes.mfaTotpInit, token, {}, totpEnrollmentInitResponseSchema),
    mfaTotpEnroll: (token, code) =>
      call('POST', routes.mfaTotpEnroll, token, { code }, mfaEnrollResponseSchema),
    async mfaSmsInit(token, body) {
      await call('POST', routes.mfaSmsInit, token, body, successSchema)
    },
    mfaSmsEnroll: (token, body) =>
      call('POST', routes.mfaSmsEnroll, token, body, mfaEnrollResponseSchema),
    mfaPasskeyInit: (token) =>
      call('POST', routes.mfaPasskeyInit, token, {}, passkeyMfaInitResponseSchema),
    mfaPasskeyEnroll: (token, body) =>
      call('POST', routes.mfaPasskeyEnroll, token, body, mfaEnrollResponseSchema),
    mfaVerify: (token, body) => call('POST', routes.mfaVerify, token, body, mfaVerificationSchema),
    mfaUnenroll: (token, body) => call('POST', routes.mfaUnenroll, token, body, userSchema),
    async mfaClear(token) {
      await call('POST', routes.mfaClear, token, {}, successSchema)
    },
    farcasterSignerInit: (token, publicKey) =>
      call(
        'POST',
        routes.farcasterSignerInit,
        token,
        { ed25519_public_key: publicKey },
        farcasterSignerResponseSchema,
      ),
    delegationKey: () =>
      call(
        'GET',
        routes.embeddedWalletsDelegationKey,
        null,
        undefined,
        delegationKeyResponseSchema,
      ),
    async delegate(token, body) {
      const answer = await call('POST', routes.embeddedWalletsDelegate, token, body, userAnswer)
      return 'user' in answer ? answer.user : answer
    },
  }
}

/** A wallet route's answer: the user, bare (as `embedded_wallets/add`) or as `{ user }`. */
const userAnswer = z.union([z.object({ user: userSchema }), userSchema])
