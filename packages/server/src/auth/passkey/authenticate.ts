import type { AuthMode, AuthResponse, PasskeyInitResponse } from '@latchkey/protocol'
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
} from '@simplewebauthn/server'
import { isoBase64URL } from '@simplewebauthn/server/helpers'
import type { Selectable } from 'kysely'
import type { AppRecord } from '../../apps/service.ts'
import { affected } from '../../db/connect.ts'
import type { LinkedAccountsTable } from '../../db/types.ts'
import type { Services } from '../../http/context.ts'
import { startSession } from '../../sessions/service.ts'
import { findAccount, PASSKEY_ACCOUNT_TYPE } from '../../users/service.ts'
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
  passkeyFailed,
} from './challenges.ts'
import { PASSKEY_CHALLENGE_TTL_MS } from './schema.ts'
import { isCounterRegression, verifyAssertion } from './verify.ts'

/*
 * Logging in with a passkey (`navigator.credentials.get()`): the challenge,
 * the assertion's checks, and the signCount it moves forward.
 */

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
 * Stores a verified assertion's signCount and backup state, and the
 * account's `latest_verified_at` (login, and MFA verification: mfa/passkey.ts).
 * A non-increasing non-zero signCount (WebAuthn §7.2 step 22, security bar
 * 25) is refused and flagged on the account (`counter_regression_at`) with a
 * warning. Written with a compare-and-set on the data, so concurrent
 * assertions can not move the counter backwards.
 */
export async function recordAssertion(
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
          `possible cloned authenticator; assertion refused (app ${app.id}, account ${row.id})`,
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
