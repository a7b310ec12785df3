import { randomBytes } from 'node:crypto'
import type {
  AuthMode,
  AuthResponse,
  PasskeyInitResponse,
  PasskeyUnlinkRequest,
  UserWire,
} from '@latchkey/protocol'
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import type { Selectable } from 'kysely'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import { affected, isUniqueViolation } from '../../db/connect.ts'
import type { LinkedAccountsTable } from '../../db/types.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { startSession } from '../../sessions/service.ts'
import {
  type AccountInput,
  createUserWithAccount,
  findAccount,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
  PASSKEY_ACCOUNT_TYPE,
  unlinkAccount,
} from '../../users/service.ts'
import { authenticatorName } from './authenticators.ts'
import {
  consumeChallenge,
  findUsableChallenge,
  issueChallenge,
  limitPasskeyInit,
  type PasskeyChallenge,
  passkeyFailed,
} from './challenges.ts'
import { MAX_PASSKEYS_PER_USER, PASSKEY_ALGORITHMS, PASSKEY_CHALLENGE_TTL_MS } from './schema.ts'
import { parseUserAgent } from './user-agent.ts'
import {
  claimedChallenge,
  isCounterRegression,
  type RegisteredCredential,
  verifyAssertion,
  verifyRegistration,
} from './verify.ts'

/*
 * Passkey login, sign-up and linking, server side (docs/passkeys.md, spec 01
 * §4 "Passkey", §7; security bar 23–26). The relying party is the host of
 * the page the user is on (the request's Origin, one of the app's origins);
 * every ceremony answers a stored single-use challenge. Passkeys are
 * `passkey` linked accounts keyed by credential id; the public key and the
 * signCount live in the account's data.
 */

/** Who is calling: the request's Origin, IP and User-Agent headers. */
export interface PasskeyCaller {
  origin: string | undefined
  ip?: string | undefined
  userAgent?: string | undefined
}

/** A passkey account's data (JSON in linked_accounts.data). */
export interface PasskeyData {
  /** base64url COSE public key. */
  public_key: string
  counter: number
  transports: string[]
  aaguid: string
  authenticator_name: string | null
  created_with_browser: string | null
  created_with_os: string | null
  created_with_device: string | null
  /** Set by MFA enrollment (spec 02); such a passkey can not be unlinked. */
  enrolled_in_mfa: boolean
  backed_up: boolean
  device_type: string
  /** base64url WebAuthn user handle the credential was created with. */
  webauthn_user_id: string
  rp_id: string
  /** Epoch ms of the last refused non-increasing signCount (security bar 25). */
  counter_regression_at?: number
}

/** Relying party and origin of a ceremony. */
interface Ceremony {
  origin: string
  rpId: string
}

/** LOGIN_METHOD_NOT_ALLOWED unless the app switched passkeys on (`login_methods.passkey`). */
function assertEnabled(app: AppRecord): void {
  if (!toAppConfig(app).login_methods.passkey) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
}

/**
 * The relying party of this request: its Origin, which must be one of the
 * app's origins (the server's own origin, which resolveApp lets through,
 * hosts no app page), and that origin's host as RP ID.
 */
function ceremonyOf(app: AppRecord, origin: string | undefined): Ceremony {
  if (!origin)
    throw new ApiError(
      'INVALID_PAYLOAD',
      'Passkeys need the Origin header of the page the user is on',
    )
  if (!app.allowedOrigins.includes(origin)) throw new ApiError('ORIGIN_NOT_ALLOWED')
  return { origin, rpId: new URL(origin).hostname }
}

/** The stored challenge was issued for this relying party and this page. */
function assertSameCeremony(row: PasskeyChallenge, relyingParty: string, ceremony: Ceremony) {
  if (relyingParty !== row.rp_id || ceremony.rpId !== row.rp_id)
    throw passkeyFailed('relying_party_mismatch')
  if (ceremony.origin !== row.origin) throw passkeyFailed('origin_mismatch')
}

const dataOf = (row: Selectable<LinkedAccountsTable>) => JSON.parse(row.data) as PasskeyData

async function passkeysOf(services: Services, userId: string) {
  return (await linkedAccountsOf(services.db, userId)).filter(
    (a) => a.type === PASSKEY_ACCOUNT_TYPE,
  )
}

/**
 * PASSKEY_ALREADY_LINKED when any user of any app holds this credential id
 * (security bar 26, WebAuthn §7.1 step 26). Within one app the unique index
 * on (app, type, identifier) also refuses a concurrent duplicate.
 */
async function assertCredentialFree(services: Services, credentialId: string): Promise<void> {
  const taken = await services.db
    .selectFrom('linked_accounts')
    .select('id')
    .where('type', '=', PASSKEY_ACCOUNT_TYPE)
    .where('identifier', '=', credentialId)
    .executeTakeFirst()
  if (taken) throw new ApiError('PASSKEY_ALREADY_LINKED')
}

function newAccount(
  credential: RegisteredCredential,
  row: PasskeyChallenge,
  userAgent: string | undefined,
): AccountInput {
  const ua = parseUserAgent(userAgent)
  const data: PasskeyData = {
    public_key: credential.publicKey,
    counter: credential.counter,
    transports: credential.transports,
    aaguid: credential.aaguid,
    authenticator_name: authenticatorName(credential.aaguid),
    created_with_browser: ua.browser,
    created_with_os: ua.os,
    created_with_device: ua.device,
    enrolled_in_mfa: false,
    backed_up: credential.backedUp,
    device_type: credential.deviceType,
    webauthn_user_id: row.webauthn_user_id ?? '',
    rp_id: row.rp_id,
  }
  return { type: PASSKEY_ACCOUNT_TYPE, identifier: credential.id, data: { ...data } }
}

/** Creation options for a discoverable, user-verified passkey (attestation 'none'). */
async function creationOptions(
  app: AppRecord,
  row: PasskeyChallenge,
  userName: string,
  exclude: Selectable<LinkedAccountsTable>[] = [],
): Promise<PasskeyInitResponse> {
  const options = await generateRegistrationOptions({
    rpName: app.name,
    rpID: row.rp_id,
    userName,
    userDisplayName: userName,
    userID: isoBase64URL.toBuffer(row.webauthn_user_id ?? ''),
    challenge: isoBase64URL.toBuffer(row.challenge),
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    attestationType: 'none',
    excludeCredentials: exclude.map((a) => ({
      id: a.identifier,
      transports: dataOf(a).transports,
    })) as Parameters<typeof generateRegistrationOptions>[0]['excludeCredentials'],
    authenticatorSelection: {
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'required',
    },
    supportedAlgorithmIDs: [...PASSKEY_ALGORITHMS],
  })
  // A spread: the wire schema's loose object wants an index signature.
  return { relying_party: row.rp_id, options: { ...options } }
}

const newWebauthnUserId = () => randomBytes(32).toString('base64url')

/**
 * Issues a sign-up challenge and the options for
 * `navigator.credentials.create()`: a discoverable credential with user
 * verification, under a fresh random user handle.
 *
 * @example
 * const { relying_party, options } = await initPasskeyRegister(services, app, { origin, ip })
 */
export async function initPasskeyRegister(
  services: Services,
  app: AppRecord,
  caller: PasskeyCaller,
): Promise<PasskeyInitResponse> {
  assertEnabled(app)
  const ceremony = ceremonyOf(app, caller.origin)
  await limitPasskeyInit(services, app.id, caller.ip)
  const row = await issueChallenge(services, app.id, {
    purpose: 'register',
    ...ceremony,
    webauthnUserId: newWebauthnUserId(),
  })
  return creationOptions(app, row, `${app.name} account`)
}

/** Finds, checks and verifies a creation response against its stored challenge. */
async function verifiedCreation(
  services: Services,
  app: AppRecord,
  caller: PasskeyCaller,
  input: { relying_party: string; authenticator_response: unknown },
  purpose: 'register' | 'link',
  userId: string | null,
): Promise<{ row: PasskeyChallenge; credential: RegisteredCredential }> {
  assertEnabled(app)
  const ceremony = ceremonyOf(app, caller.origin)
  const response = input.authenticator_response as RegistrationResponseJSON
  const challenge = claimedChallenge(response.response.clientDataJSON)
  const row = await findUsableChallenge(
    services.db,
    app.id,
    purpose,
    challenge,
    services.now(),
    userId,
  )
  assertSameCeremony(row, input.relying_party, ceremony)
  const credential = await verifyRegistration(response, {
    challenge: row.challenge,
    origin: row.origin,
    rpId: row.rp_id,
  })
  await assertCredentialFree(services, credential.id)
  await consumeChallenge(services.db, row.challenge, services.now())
  return { row, credential }
}

/**
 * Signs up a new user with a new passkey (spec 01 §4 "Create new account").
 * A credential id any user already holds is refused (PASSKEY_ALREADY_LINKED).
 */
export async function registerWithPasskey(
  services: Services,
  app: AppRecord,
  caller: PasskeyCaller,
  input: { relying_party: string; authenticator_response: unknown },
): Promise<AuthResponse> {
  const { row, credential } = await verifiedCreation(services, app, caller, input, 'register', null)
  let userId: string
  try {
    userId = await createUserWithAccount(
      services.db,
      app.id,
      newAccount(credential, row, caller.userAgent),
      services.now(),
    )
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('PASSKEY_ALREADY_LINKED')
    throw error
  }
  return startSession(services, app.id, userId, true)
}

/**
 * Issues a login challenge and the options for `navigator.credentials.get()`:
 * no allowCredentials (the browser offers the discoverable passkeys it holds
 * for this RP ID), user verification required.
 */
export async function initPasskeyAuthenticate(
  services: Services,
  app: AppRecord,
  caller: PasskeyCaller,
): Promise<PasskeyInitResponse> {
  assertEnabled(app)
  const ceremony = ceremonyOf(app, caller.origin)
  await limitPasskeyInit(services, app.id, caller.ip)
  const row = await issueChallenge(services, app.id, { purpose: 'authenticate', ...ceremony })
  const options = await generateAuthenticationOptions({
    rpID: row.rp_id,
    challenge: isoBase64URL.toBuffer(row.challenge),
    allowCredentials: [],
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  })
  // A spread: the wire schema's loose object wants an index signature.
  return { relying_party: row.rp_id, options: { ...options } }
}

/**
 * Stores a verified assertion's signCount and backup state. A non-increasing
 * non-zero signCount (WebAuthn §7.2 step 22, security bar 25) is refused and
 * flagged on the account (`counter_regression_at`) with a warning. Written
 * with a compare-and-set on the data, so concurrent assertions can not move
 * the counter backwards.
 */
async function recordAssertion(
  services: Services,
  app: AppRecord,
  first: Selectable<LinkedAccountsTable>,
  assertion: { newCounter: number; backedUp: boolean },
): Promise<void> {
  let row: Selectable<LinkedAccountsTable> | undefined = first
  for (let attempt = 0; attempt < 3 && row; attempt++) {
    const data = dataOf(row)
    const now = services.now()
    const regression = isCounterRegression(data.counter, assertion.newCounter)
    const next: PasskeyData = regression
      ? { ...data, counter_regression_at: now }
      : { ...data, counter: assertion.newCounter, backed_up: assertion.backedUp }
    const result = await services.db
      .updateTable('linked_accounts')
      .set(
        regression
          ? { data: JSON.stringify(next) }
          : { data: JSON.stringify(next), latest_verified_at: now },
      )
      .where('id', '=', row.id)
      .where('data', '=', row.data)
      .executeTakeFirst()
    if (affected(result) === 1) {
      if (!regression) return
      services.logger.warn(
        `passkey signCount did not increase (stored ${data.counter}, received ${assertion.newCounter}); ` +
          `possible cloned authenticator; login refused (app ${app.id}, account ${row.id})`,
      )
      throw passkeyFailed('counter_regression')
    }
    row = await services.db
      .selectFrom('linked_accounts')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirst()
  }
  throw passkeyFailed('concurrent_use')
}

/**
 * Logs in the owner of a passkey (spec 01 §4 "Log in with a passkey"). An
 * unknown credential or any failed check: PASSKEY_VERIFICATION_FAILED. A
 * passkey login never signs up (a new passkey goes through register), so
 * `mode` 'no-signup' and 'login-or-sign-up' behave the same.
 */
export async function authenticateWithPasskey(
  services: Services,
  app: AppRecord,
  caller: PasskeyCaller,
  input: {
    relying_party: string
    challenge: string
    authenticator_response: unknown
    mode: AuthMode
  },
): Promise<AuthResponse> {
  assertEnabled(app)
  const ceremony = ceremonyOf(app, caller.origin)
  const response = input.authenticator_response as AuthenticationResponseJSON
  const row = await findUsableChallenge(
    services.db,
    app.id,
    'authenticate',
    input.challenge,
    services.now(),
  )
  assertSameCeremony(row, input.relying_party, ceremony)
  const account = await findAccount(services.db, app.id, PASSKEY_ACCOUNT_TYPE, response.id)
  if (!account) throw passkeyFailed('credential_unknown')
  const data = dataOf(account)
  // The user handle, when the authenticator returns one, is the one it was created with.
  const handle = response.response.userHandle
  if (handle && data.webauthn_user_id && handle !== data.webauthn_user_id)
    throw passkeyFailed('user_handle')
  const assertion = await verifyAssertion(
    response,
    { challenge: row.challenge, origin: row.origin, rpId: row.rp_id },
    { id: account.identifier, publicKey: data.public_key, counter: data.counter },
  )
  await consumeChallenge(services.db, row.challenge, services.now())
  await recordAssertion(services, app, account, assertion)
  return startSession(services, app.id, account.user_id, false)
}

/** A name the passkey list of the user's password manager can show. */
async function userNameOf(services: Services, app: AppRecord, userId: string): Promise<string> {
  const accounts = await linkedAccountsOf(services.db, userId)
  const named = accounts.find((a) => a.type === 'email') ?? accounts.find((a) => a.type === 'phone')
  return named?.identifier ?? `${app.name} account`
}

/**
 * Issues a link challenge for the signed-in user: PASSKEY_LINK_LIMIT at
 * MAX_PASSKEYS_PER_USER; the user's passkeys are excluded (an authenticator
 * holding one refuses to make another), and new ones share their user handle.
 */
export async function initPasskeyLink(
  services: Services,
  app: AppRecord,
  userId: string,
  caller: PasskeyCaller,
): Promise<PasskeyInitResponse> {
  assertEnabled(app)
  const ceremony = ceremonyOf(app, caller.origin)
  await limitPasskeyInit(services, app.id, caller.ip)
  const passkeys = await passkeysOf(services, userId)
  if (passkeys.length >= MAX_PASSKEYS_PER_USER) throw new ApiError('PASSKEY_LINK_LIMIT')
  const handle = passkeys.map((a) => dataOf(a).webauthn_user_id).find(Boolean)
  const row = await issueChallenge(services, app.id, {
    purpose: 'link',
    ...ceremony,
    userId,
    webauthnUserId: handle ?? newWebauthnUserId(),
  })
  return creationOptions(app, row, await userNameOf(services, app, userId), passkeys)
}

/**
 * Links a new passkey to the signed-in user. The limit is checked again
 * inside the inserting transaction, which first locks the user's row, so
 * concurrent links can not pass MAX_PASSKEYS_PER_USER.
 */
export async function linkPasskey(
  services: Services,
  app: AppRecord,
  userId: string,
  caller: PasskeyCaller,
  input: { relying_party: string; authenticator_response: unknown },
): Promise<UserWire> {
  const { row, credential } = await verifiedCreation(services, app, caller, input, 'link', userId)
  const account = newAccount(credential, row, caller.userAgent)
  try {
    await services.db.transaction().execute(async (tx) => {
      // A no-op write: Postgres locks the row until commit; SQLite serialises writers.
      await tx
        .updateTable('users')
        .set((eb) => ({ is_guest: eb.ref('is_guest') }))
        .where('id', '=', userId)
        .execute()
      const accounts = await linkedAccountsOf(tx, userId)
      if (accounts.filter((a) => a.type === PASSKEY_ACCOUNT_TYPE).length >= MAX_PASSKEYS_PER_USER)
        throw new ApiError('PASSKEY_LINK_LIMIT')
      await insertAccount(tx, app.id, userId, account, services.now())
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('PASSKEY_ALREADY_LINKED')
    throw error
  }
  return getUserWire(services.db, userId)
}

/**
 * Removes one of the signed-in user's passkeys. A passkey enrolled in MFA
 * is refused (PASSKEY_ENROLLED_IN_MFA: remove it as MFA first); the user
 * must keep one login method (CANNOT_UNLINK_LAST_ACCOUNT). Allowed while the
 * login method is switched off, so users can still clean up.
 */
export async function unlinkPasskey(
  services: Services,
  app: AppRecord,
  userId: string,
  input: Pick<PasskeyUnlinkRequest, 'credential_id'>,
): Promise<UserWire> {
  const account = await findAccount(services.db, app.id, PASSKEY_ACCOUNT_TYPE, input.credential_id)
  if (account && account.user_id === userId && dataOf(account).enrolled_in_mfa === true)
    throw new ApiError('PASSKEY_ENROLLED_IN_MFA')
  return unlinkAccount(services.db, app.id, userId, PASSKEY_ACCOUNT_TYPE, input.credential_id)
}
