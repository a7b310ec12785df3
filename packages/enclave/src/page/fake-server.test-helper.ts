import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol/routes'
import {
  addEmbeddedWalletRequestSchema,
  type CloudOAuthResult,
  type CloudRecoveryProvider,
  createEmbeddedWalletsRequestSchema,
  entropyRequestSchema,
  type RecoveryMaterial,
  type RecoveryOAuthAuthenticateResponse,
  recoveryOAuthAuthenticateRequestSchema,
  setRecoveryRequestSchema,
  type UserWire,
} from '@latchkey/protocol/schemas'
import type { FakeCloudKit, FakeGoogle } from '@latchkey/server/test/fakes'
import {
  exchangeGoogleCode,
  GOOGLE_CLIENT,
  ICLOUD,
  pkce,
  REDIRECT_URI,
} from '../cloud/fakes.test-helper.ts'
import type { FetchLike } from './api.ts'
import { createFakeMfa } from './fake-mfa.test-helper.ts'
import { ENCLAVE_ORIGIN, type VerifiedProof, verifyProof } from './proof.test-helper.ts'

interface StoredSecret {
  owner: string
  authShare: string
  recovery: RecoveryMaterial
  imported: boolean
}

/** The cloud providers the fake server's `recovery/oauth/authenticate` exchanges with. */
export interface FakeCloudProviders {
  /** Started with the client {@link GOOGLE_CLIENT}. */
  google?: FakeGoogle
  /** Started with {@link ICLOUD}'s container and API token. */
  icloud?: FakeCloudKit
}

/** A route added to the fake server; `wallets` is the user's own list (mutable). */
export interface FakeRoute {
  public?: boolean
  handle(request: {
    body: unknown
    owner: string | null
    user: (() => UserWire) | null
    wallets: UserWire['linked_accounts']
    /** The real server's MFA gate for this session (null: open). */
    mfaRequired(): Response | null
  }): Response | Promise<Response>
}

/** One request the fake server received, with its checked proof (null when it had none). */
export interface FakeServerCall {
  path: string
  method: string
  headers: Record<string, string>
  body: unknown
  proof: VerifiedProof | null
}

/**
 * A stand-in for the server's share-storage routes (protocol schemas in,
 * protocol shapes out), with one user per bearer token. Every request must
 * carry a valid enclave proof (`dpop`: checked with jose, `htu` under
 * `ENCLAVE_ORIGIN`, each `jti` once) unless `requireProof` is false; a
 * refused one is 401 ENCLAVE_PROOF_INVALID. `usersDelete` forgets the user's
 * secrets and wallets and refuses its token afterwards. `failNext` makes the next call to
 * a path answer an error. With `cloud`, it also answers
 * `recovery/oauth/authenticate` as the real server does: single-use state,
 * the Google code exchanged at the fake Google's token endpoint (PKCE), the
 * iCloud web auth token passed through with the app's container.
 *
 * A bearer is `user-<name>` (the user, one session) or a JWT-shaped
 * `sessionToken(owner, sid)` (fake-mfa.test-helper.ts). MFA (`mfa`) is the
 * real server's: a user with a factor gets MFA_REQUIRED from the auth share
 * without a window for that session, and `warm_until` with one.
 */
export function createFakeServer(options: {
  appId: string
  cloud?: FakeCloudProviders
  requireProof?: boolean
  now?: () => number
  /** More routes (fake-delegation.test-helper.ts): answered before any check when `public`. */
  routes?: Record<string, FakeRoute>
}) {
  const secrets = new Map<string, StoredSecret>()
  const wallets = new Map<string, UserWire['linked_accounts']>()
  const failures = new Map<string, { status: number; body: unknown } | 'network'>()
  const calls: FakeServerCall[] = []
  const spentJtis = new Set<string>()
  /** Users deleted by `usersDelete`: their tokens are refused from then on. */
  const deleted = new Set<string>()
  const now = options.now ?? (() => Date.now())
  const mfa = createFakeMfa({ now })

  const key = (id: string) => id.toLowerCase()
  const json = (status: number, body: unknown) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
  const userOf = (owner: string): UserWire => ({
    id: owner,
    created_at: 1,
    linked_accounts: wallets.get(owner) ?? [],
    mfa_methods: mfa.methodsOf(owner),
    has_accepted_terms: false,
    is_guest: false,
  })
  const addWallet = (
    owner: string,
    entropyId: string,
    w: { chain_type: 'ethereum' | 'solana'; address: string; wallet_index: number | null },
  ) => {
    const secret = secrets.get(key(entropyId)) as StoredSecret
    const list = wallets.get(owner) ?? []
    list.push({
      type: 'wallet',
      address: w.address,
      chain_type: w.chain_type,
      wallet_index: w.wallet_index,
      wallet_client_type: 'latchkey',
      connector_type: 'embedded',
      imported: secret.imported,
      delegated: false,
      recovery_method: secret.recovery.method,
      entropy_id: entropyId,
      verified_at: 1,
      first_verified_at: 1,
      latest_verified_at: 1,
    })
    wallets.set(owner, list)
  }
  const invalid = { code: 'INVALID_PAYLOAD', message: 'The request payload is invalid' }
  /** The user and session of a bearer: `user-x` (its own session), or a JWT's `sub` and `sid`. */
  const bearerOf = (token: string): { owner: string | null; session: string } => {
    if (/^user-\w+$/.test(token)) return { owner: token, session: token }
    try {
      const claims = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString())
      if (/^user-\w+$/.test(claims.sub) && typeof claims.sid === 'string')
        return { owner: claims.sub, session: claims.sid }
    } catch {}
    return { owner: null, session: '' }
  }
  /** State codes handed out by `consent`, single use, as the server's init would record them. */
  const states = new Map<string, { provider: CloudRecoveryProvider; owner: string }>()

  /**
   * What the host hands the enclave after `account` accepted the consent:
   * `init` + the provider's redirect, without a browser.
   */
  function consent(
    provider: CloudRecoveryProvider,
    account: string,
    owner = 'user-alice',
  ): CloudOAuthResult {
    const state_code = randomBytes(16).toString('base64url')
    states.set(state_code, { provider, owner })
    if (provider === 'icloud') {
      const ck = options.cloud?.icloud
      if (!ck) throw new Error('No fake CloudKit configured')
      return { provider, authorization_code: ck.issueWebAuthToken(account), state_code }
    }
    const google = options.cloud?.google
    if (!google) throw new Error('No fake Google configured')
    const { verifier, challenge } = pkce()
    const authorization_code = google.issueCode({
      clientId: GOOGLE_CLIENT.clientId,
      redirectUri: REDIRECT_URI,
      codeChallenge: challenge,
      account,
    })
    return { provider, authorization_code, state_code, code_verifier: verifier }
  }

  async function cloudAuthenticate(owner: string, body: unknown): Promise<Response> {
    const parsed = recoveryOAuthAuthenticateRequestSchema.safeParse(body)
    if (!parsed.success) return json(400, invalid)
    const oauth = parsed.data
    const state = states.get(oauth.state_code)
    states.delete(oauth.state_code)
    if (state?.provider !== oauth.provider || state.owner !== owner)
      return json(400, { code: 'OAUTH_STATE_MISMATCH', message: 'Unknown or used state' })
    const refused = { code: 'CLOUD_RECOVERY_FAILED', message: 'Google refused the code' }
    let answer: RecoveryOAuthAuthenticateResponse
    if (oauth.provider === 'google-drive') {
      const google = options.cloud?.google
      if (!google || !oauth.code_verifier)
        return json(400, { code: 'CLOUD_RECOVERY_NOT_CONFIGURED', message: 'x' })
      try {
        const token = await exchangeGoogleCode(
          google,
          oauth.authorization_code,
          oauth.code_verifier,
        )
        answer = {
          provider: 'google-drive',
          access_token: token.access_token,
          expires_in: token.expires_in,
          api_base_url: google.apiBaseUrl,
        }
      } catch {
        return json(424, refused)
      }
    } else {
      const ck = options.cloud?.icloud
      if (!ck) return json(400, { code: 'CLOUD_RECOVERY_NOT_CONFIGURED', message: 'x' })
      answer = {
        provider: 'icloud',
        access_token: oauth.authorization_code,
        api_base_url: ck.apiBaseUrl,
        container_id: ICLOUD.containerId,
        environment: ICLOUD.environment,
        api_token: ICLOUD.apiToken,
      }
    }
    return json(200, answer)
  }

  const fetch: FetchLike = async (input, init) => {
    const path = input
    const method = init.method ?? 'GET'
    const headers = Object.fromEntries(new Headers(init.headers).entries())
    const body = init.body ? JSON.parse(String(init.body)) : undefined
    const call: FakeServerCall = { path, method, headers, body, proof: null }
    calls.push(call)
    const failure = failures.get(path)
    if (failure) {
      failures.delete(path)
      if (failure === 'network') throw new TypeError('Failed to fetch')
      return json(failure.status, failure.body)
    }
    if (headers['latchkey-app-id'] !== options.appId)
      return json(404, { code: 'APP_NOT_FOUND', message: 'x' })
    const extra = options.routes?.[path]
    if (extra?.public)
      return extra.handle({ body, owner: null, user: null, wallets: [], mfaRequired: () => null })
    const token = headers.authorization?.match(/^Bearer (\S+)$/)?.[1] ?? ''
    const { owner, session } = bearerOf(token)
    const unauthorized = json(401, { code: 'UNAUTHORIZED', message: 'Unable to authorize user' })
    if (!owner) return unauthorized
    if (headers.dpop !== undefined || options.requireProof !== false) {
      try {
        const proof = await verifyProof(headers.dpop, {
          method,
          url: `${ENCLAVE_ORIGIN}${path}`,
          accessToken: token,
        })
        if (spentJtis.has(`${proof.jkt}.${proof.jti}`)) throw new Error('jti replayed')
        spentJtis.add(`${proof.jkt}.${proof.jti}`)
        call.proof = proof
      } catch {
        return json(401, { code: 'ENCLAVE_PROOF_INVALID', message: 'Unable to authorize user' })
      }
    }
    if (deleted.has(owner)) return unauthorized
    const owned = (id: string) => {
      const s = secrets.get(key(id))
      return s && s.owner === owner ? s : null
    }
    const mfaAnswer = mfa.handle(path, owner, session, body, userOf)
    if (mfaAnswer) return mfaAnswer
    if (extra) {
      const user = () => userOf(owner)
      const mfaRequired = () => mfa.required(owner, session)
      return extra.handle({ body, owner, user, wallets: wallets.get(owner) ?? [], mfaRequired })
    }
    switch (path) {
      case routes.usersMe:
        return json(200, { user: userOf(owner), identity_token: null })
      case routes.embeddedWalletsCreate: {
        const parsed = createEmbeddedWalletsRequestSchema.safeParse(body)
        if (!parsed.success) return json(400, invalid)
        const b = parsed.data
        if (secrets.has(key(b.entropy_id)) || (wallets.get(owner) ?? []).length > 0)
          return json(400, { code: 'WALLET_ALREADY_EXISTS', message: 'exists' })
        secrets.set(key(b.entropy_id), {
          owner,
          authShare: b.auth_share,
          recovery: b.recovery,
          imported: b.entropy_type === 'private-key',
        })
        for (const w of b.wallets) addWallet(owner, b.entropy_id, w)
        return json(200, userOf(owner))
      }
      case routes.embeddedWalletsAdd: {
        const parsed = addEmbeddedWalletRequestSchema.safeParse(body)
        if (!parsed.success) return json(400, invalid)
        if (!owned(parsed.data.entropy_id))
          return json(404, { code: 'WALLET_NOT_FOUND', message: 'x' })
        addWallet(owner, parsed.data.entropy_id, parsed.data)
        return json(200, userOf(owner))
      }
      case routes.embeddedWalletsAuthShare: {
        const parsed = entropyRequestSchema.safeParse(body)
        if (!parsed.success) return json(400, invalid)
        const refused = mfa.required(owner, session)
        if (refused) return refused
        const s = owned(parsed.data.entropy_id)
        if (!s) return json(404, { code: 'WALLET_NOT_FOUND', message: 'x' })
        return json(200, {
          entropy_id: parsed.data.entropy_id,
          auth_share: s.authShare,
          warm_until: mfa.warmUntil(owner, session),
        })
      }
      case routes.embeddedWalletsRecovery: {
        const parsed = entropyRequestSchema.safeParse(body)
        if (!parsed.success) return json(400, invalid)
        const s = owned(parsed.data.entropy_id)
        if (!s) return json(404, { code: 'WALLET_NOT_FOUND', message: 'x' })
        return json(200, { entropy_id: parsed.data.entropy_id, recovery: s.recovery })
      }
      case routes.embeddedWalletsSetRecovery: {
        const parsed = setRecoveryRequestSchema.safeParse(body)
        if (!parsed.success) return json(400, invalid)
        const s = owned(parsed.data.entropy_id)
        if (!s) return json(404, { code: 'WALLET_NOT_FOUND', message: 'x' })
        s.recovery = parsed.data.recovery
        for (const w of wallets.get(owner) ?? [])
          if (
            w.type === 'wallet' &&
            w.connector_type === 'embedded' &&
            key(w.entropy_id) === key(parsed.data.entropy_id)
          )
            w.recovery_method = s.recovery.method
        return json(200, userOf(owner))
      }
      case routes.recoveryOAuthAuthenticate:
        return cloudAuthenticate(owner, body)
      case routes.usersDelete: {
        if (JSON.stringify(body) !== '{}') return json(400, invalid)
        deleted.add(owner)
        wallets.delete(owner)
        for (const [id, secret] of secrets) if (secret.owner === owner) secrets.delete(id)
        return json(200, { success: true })
      }
      default:
        return json(404, { code: 'NOT_FOUND', message: 'x' })
    }
  }

  return {
    fetch,
    secrets,
    calls,
    consent,
    mfa,
    failNext(path: string, failure: { status: number; body: unknown } | 'network') {
      failures.set(path, failure)
    },
  }
}
