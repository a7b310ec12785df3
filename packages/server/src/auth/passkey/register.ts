import { randomBytes } from 'node:crypto'
import type { AuthResponse, PasskeyInitResponse } from '@latchkey/protocol'
import { generateRegistrationOptions, type RegistrationResponseJSON } from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import type { Selectable } from 'kysely'
import type { AppRecord } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import type { LinkedAccountsTable } from '../../db/types.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { startSession } from '../../sessions/service.ts'
import {
  type AccountInput,
  createUserWithAccount,
  PASSKEY_ACCOUNT_TYPE,
} from '../../users/service.ts'
import { authenticatorName } from './authenticators.ts'
import {
  assertEnabled,
  assertSameCeremony,
  ceremonyOf,
  dataOf,
  type PasskeyCaller,
  type PasskeyData,
} from './ceremony.ts'
import {
  consumeChallenge,
  findUsableChallenge,
  issueChallenge,
  limitPasskeyInit,
  type PasskeyChallenge,
} from './challenges.ts'
import { PASSKEY_ALGORITHMS, PASSKEY_CHALLENGE_TTL_MS } from './schema.ts'
import { parseUserAgent } from './user-agent.ts'
import { claimedChallenge, type RegisteredCredential, verifyRegistration } from './verify.ts'

/*
 * Creating a passkey (`navigator.credentials.create()`): sign-up here, and
 * the creation ceremony that linking another passkey shares (link.ts).
 */

export const newWebauthnUserId = () => randomBytes(32).toString('base64url')

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

export function newAccount(
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
export async function creationOptions(
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

/** Finds, checks and verifies a creation response against its stored challenge. */
export async function verifiedCreation(
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
