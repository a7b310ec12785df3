import type {
  MfaEnrollResponse,
  MfaVerification,
  PasskeyMfaInitResponse,
  UserWire,
} from '@latchkey/protocol'
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
} from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import type { Selectable, Transaction } from 'kysely'
import type { AppRecord } from '../apps/service.ts'
import { recordAssertion } from '../auth/passkey/authenticate.ts'
import { dataOf } from '../auth/passkey/ceremony.ts'
import {
  consumeChallenge,
  findUsableChallenge,
  issueChallenge,
  limitPasskeyInit,
  passkeyFailed,
} from '../auth/passkey/challenges.ts'
import { PASSKEY_CHALLENGE_TTL_MS } from '../auth/passkey/schema.ts'
import { claimedChallenge, verifyAssertion } from '../auth/passkey/verify.ts'
import { affected } from '../db/connect.ts'
import type { Database, LinkedAccountsTable } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { newId } from '../ids.ts'
import {
  findAccount,
  getUserWire,
  linkedAccountsOf,
  lockUser,
  PASSKEY_ACCOUNT_TYPE,
  removeAccount,
} from '../users/service.ts'
import { claimMfaAttempt, clearMfaAttempts } from './attempts.ts'
import { assertMethodAllowed, findEnabledFactor } from './factors.ts'
import { recordMfaVerification } from './verifications.ts'

/*
 * The passkey factor (docs/mfa.md "Passkey"): some of the user's linked
 * passkeys, flagged `enrolled_in_mfa` in their account data, and an enabled
 * `passkey` row in mfa_factors while at least one is. Verifying is a WebAuthn
 * assertion (the login ceremony's checks, auth/passkey/verify.ts) against a
 * challenge bound to the user, with allowCredentials limited to those
 * passkeys. Every change of the flags and the row runs under the user's row
 * lock, so they stay in step under concurrent requests; each flag is written
 * by compare-and-set, since a login moves the same data's signCount.
 */

type Tx = Transaction<Database>
type Account = Selectable<LinkedAccountsTable>

const inMfa = (account: Account) => dataOf(account).enrolled_in_mfa === true

const passkeysOf = async (db: Tx, userId: string) =>
  (await linkedAccountsOf(db, userId)).filter((a) => a.type === PASSKEY_ACCOUNT_TYPE)

/** Sets a passkey's `enrolled_in_mfa`, by compare-and-set on its data (a login may move its counter meanwhile). */
async function setEnrolledInMfa(tx: Tx, account: Account, enrolled: boolean): Promise<void> {
  let row: Account | undefined = account
  for (let attempt = 0; attempt < 5 && row; attempt++) {
    const data = dataOf(row)
    if ((data.enrolled_in_mfa === true) === enrolled) return
    const result = await tx
      .updateTable('linked_accounts')
      .set({ data: JSON.stringify({ ...data, enrolled_in_mfa: enrolled }) })
      .where('id', '=', row.id)
      .where('data', '=', row.data)
      .executeTakeFirst()
    if (affected(result) === 1) return
    row = await tx
      .selectFrom('linked_accounts')
      .selectAll()
      .where('id', '=', row.id)
      .executeTakeFirst()
  }
  if (!row) throw new ApiError('MFA_PASSKEY_NOT_LINKED')
  throw passkeyFailed('concurrent_use')
}

/**
 * Removes the passkey factor's row once none of the user's passkeys is in
 * MFA any more (call it under the user's lock, after taking one out).
 */
export async function disablePasskeyFactorIfEmpty(tx: Tx, userId: string): Promise<void> {
  if ((await passkeysOf(tx, userId)).some(inMfa)) return
  await tx
    .deleteFrom('mfa_factors')
    .where('user_id', '=', userId)
    .where('method', '=', 'passkey')
    .execute()
}

/**
 * Clears `enrolled_in_mfa` on every passkey of the user (the operator's MFA
 * reset, mfa/reset.ts), so they can be unlinked again.
 */
export async function clearPasskeysFromMfa(tx: Tx, userId: string): Promise<void> {
  for (const passkey of (await passkeysOf(tx, userId)).filter(inMfa))
    await setEnrolledInMfa(tx, passkey, false)
}

/**
 * `POST mfa/passkey/enroll` (spec 02 "Enable passkeys"): puts some of the
 * user's linked passkeys into MFA and enables the passkey factor. Each id
 * must be one of the user's passkeys (400 MFA_PASSKEY_NOT_LINKED, nothing
 * changed); ids already in MFA stay. Enabling proves nothing by itself, so
 * the session is not verified by it (`verification: null`).
 */
export async function enrollPasskeyMfa(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  credentialIds: readonly string[],
): Promise<MfaEnrollResponse> {
  assertMethodAllowed(app, 'passkey')
  const now = services.now()
  await services.db.transaction().execute(async (tx) => {
    await lockUser(tx, auth.userId)
    const passkeys = await passkeysOf(tx, auth.userId)
    const chosen = [...new Set(credentialIds)].map((id) =>
      passkeys.find((p) => p.identifier === id),
    )
    for (const passkey of chosen) if (!passkey) throw new ApiError('MFA_PASSKEY_NOT_LINKED')
    for (const passkey of chosen) if (passkey) await setEnrolledInMfa(tx, passkey, true)
    await tx
      .insertInto('mfa_factors')
      .values({
        id: newId(),
        app_id: app.id,
        user_id: auth.userId,
        method: 'passkey',
        secret: null,
        enabled: 1,
        last_used_step: null,
        created_at: now,
        enabled_at: now,
        expires_at: null,
      })
      .onConflict((oc) => oc.columns(['user_id', 'method']).doNothing())
      .execute()
  })
  services.logger.info(`MFA passkeys enabled by their owner: ${auth.userId}`)
  return { user: await getUserWire(services.db, auth.userId), verification: null }
}

/** The app's origins on the RP ID's host: the pages an MFA assertion may come from. */
const originsOf = (app: AppRecord, rpId: string) =>
  app.allowedOrigins.filter((origin) => URL.canParse(origin) && new URL(origin).hostname === rpId)

/**
 * `POST mfa/passkey/init`: a challenge bound to the user and the options for
 * `navigator.credentials.get()` in the host page, allowCredentials = the
 * user's MFA passkeys, user verification required. A passkey belongs to the
 * host it was made on (docs/passkeys.md): the relying party is that of the
 * MFA passkey used last, and any app origin on that host may answer. 400
 * MFA_NOT_ENROLLED without MFA passkeys.
 */
export async function initPasskeyMfa(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  ip: string | undefined,
): Promise<PasskeyMfaInitResponse> {
  const factor = await findEnabledFactor(services.db, auth.userId, 'passkey')
  const enrolled = (await linkedAccountsOf(services.db, auth.userId)).filter(
    (a) => a.type === PASSKEY_ACCOUNT_TYPE && inMfa(a),
  )
  if (!factor || enrolled.length === 0) throw new ApiError('MFA_NOT_ENROLLED')
  const latest = enrolled.reduce((a, b) =>
    Number(b.latest_verified_at) > Number(a.latest_verified_at) ? b : a,
  )
  const rpId = dataOf(latest).rp_id
  const origins = originsOf(app, rpId)
  if (origins.length === 0) throw passkeyFailed('relying_party_mismatch')
  await limitPasskeyInit(services, app.id, ip)
  const row = await issueChallenge(services, app.id, {
    purpose: 'mfa',
    rpId,
    origin: origins.join(' '),
    userId: auth.userId,
  })
  const options = await generateAuthenticationOptions({
    rpID: rpId,
    challenge: isoBase64URL.toBuffer(row.challenge),
    allowCredentials: enrolled
      .filter((a) => dataOf(a).rp_id === rpId)
      .map((a) => ({
        id: a.identifier,
        transports: dataOf(a).transports as AuthenticatorTransport[],
      })),
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
  })
  return { relying_party: rpId, options: { ...options } }
}

/**
 * `mfa/verify` with a passkey: the assertion must answer an unspent `mfa`
 * challenge issued to this user, from one of the user's MFA passkeys, and
 * pass the login ceremony's checks; the challenge is spent, the signCount
 * and `latest_verified_at` recorded. Counts against the user's MFA attempts
 * first, like a code: a refused assertion is one attempt.
 */
export async function verifyPasskeyMfa(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  request: { relying_party: string; authenticator_response: unknown },
): Promise<MfaVerification> {
  if (!(await findEnabledFactor(services.db, auth.userId, 'passkey')))
    throw new ApiError('MFA_NOT_ENROLLED')
  await claimMfaAttempt(services, auth.userId)
  const response = request.authenticator_response as AuthenticationResponseJSON
  const challenge = claimedChallenge(response.response.clientDataJSON)
  const row = await findUsableChallenge(
    services.db,
    app.id,
    'mfa',
    challenge,
    services.now(),
    auth.userId,
  )
  if (request.relying_party !== row.rp_id) throw passkeyFailed('relying_party_mismatch')
  const account = await findAccount(services.db, app.id, PASSKEY_ACCOUNT_TYPE, response.id)
  if (!account || account.user_id !== auth.userId) throw passkeyFailed('credential_unknown')
  const data = dataOf(account)
  if (!inMfa(account)) throw passkeyFailed('not_enrolled_in_mfa')
  const handle = response.response.userHandle
  if (handle && data.webauthn_user_id && handle !== data.webauthn_user_id)
    throw passkeyFailed('user_handle')
  // Origins since removed from the app no longer answer.
  const origins = row.origin.split(' ').filter((o) => app.allowedOrigins.includes(o))
  if (origins.length === 0) throw passkeyFailed('origin_mismatch')
  const assertion = await verifyAssertion(
    response,
    { challenge: row.challenge, origin: origins, rpId: row.rp_id },
    { id: account.identifier, publicKey: data.public_key, counter: data.counter },
  )
  await consumeChallenge(services.db, row.challenge, services.now())
  await recordAssertion(services, app, account, assertion)
  await clearMfaAttempts(services, auth.userId)
  return recordMfaVerification(services, auth, 'passkey')
}

/**
 * `mfa/unenroll` for passkeys: takes one passkey (`credential_id`) or all of
 * them out of MFA, and with `remove_for_login` unlinks them too, in one
 * transaction (the user keeps one login method, or nothing changes:
 * CANNOT_UNLINK_LAST_ACCOUNT). The factor goes with the last MFA passkey.
 * Not the user's passkey: MFA_PASSKEY_NOT_LINKED; not in MFA, or no passkey
 * factor at all: MFA_NOT_ENROLLED.
 */
export async function unenrollPasskeyMfa(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  request: { credential_id?: string | undefined; remove_for_login?: boolean | undefined },
): Promise<UserWire> {
  const user = await services.db.transaction().execute(async (tx) => {
    await lockUser(tx, auth.userId)
    const passkeys = await passkeysOf(tx, auth.userId)
    let targets = passkeys.filter(inMfa)
    if (request.credential_id !== undefined) {
      const target = passkeys.find((p) => p.identifier === request.credential_id)
      if (!target) throw new ApiError('MFA_PASSKEY_NOT_LINKED')
      if (!inMfa(target)) throw new ApiError('MFA_NOT_ENROLLED')
      targets = [target]
    } else if (targets.length === 0 && !(await findEnabledFactor(tx, auth.userId, 'passkey')))
      throw new ApiError('MFA_NOT_ENROLLED')
    for (const target of targets) {
      if (request.remove_for_login)
        await removeAccount(tx, app.id, auth.userId, PASSKEY_ACCOUNT_TYPE, target.identifier)
      else await setEnrolledInMfa(tx, target, false)
    }
    await disablePasskeyFactorIfEmpty(tx, auth.userId)
    return getUserWire(tx, auth.userId)
  })
  services.logger.info(
    `MFA passkeys removed by their owner${request.remove_for_login ? ' (and unlinked)' : ''}: ${auth.userId}`,
  )
  return user
}
