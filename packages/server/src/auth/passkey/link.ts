import type { PasskeyInitResponse, PasskeyUnlinkRequest, UserWire } from '@latchkey/protocol'
import type { AppRecord } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { disablePasskeyFactorIfEmpty } from '../../mfa/passkey.ts'
import {
  findAccount,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
  lockUser,
  PASSKEY_ACCOUNT_TYPE,
  removeAccount,
} from '../../users/service.ts'
import { assertEnabled, ceremonyOf, dataOf, type PasskeyCaller } from './ceremony.ts'
import { issueChallenge, limitPasskeyInit } from './challenges.ts'
import { creationOptions, newAccount, newWebauthnUserId, verifiedCreation } from './register.ts'
import { MAX_PASSKEYS_PER_USER } from './schema.ts'

/*
 * The signed-in user's passkeys: adding one (the creation ceremony of
 * register.ts, under the user's existing handle) and removing one.
 */

async function passkeysOf(services: Services, userId: string) {
  return (await linkedAccountsOf(services.db, userId)).filter(
    (a) => a.type === PASSKEY_ACCOUNT_TYPE,
  )
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
      await lockUser(tx, userId)
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
 * Removes one of the signed-in user's passkeys; the user must keep one login
 * method (CANNOT_UNLINK_LAST_ACCOUNT). Allowed while the login method is
 * switched off, so users can still clean up. A passkey enrolled in MFA is
 * refused (PASSKEY_ENROLLED_IN_MFA: spec 02 'Cannot unlink a passkey enrolled
 * in MFA') unless `remove_as_mfa`: then it leaves MFA and the account in one
 * transaction (the passkey factor with it when it was the last), after
 * `proveFactorChange` — the route's demand that a factor change come from
 * the enclave with a fresh verification (docs/mfa.md).
 */
export async function unlinkPasskey(
  services: Services,
  app: AppRecord,
  userId: string,
  input: Pick<PasskeyUnlinkRequest, 'credential_id' | 'remove_as_mfa'>,
  proveFactorChange: () => Promise<void>,
): Promise<UserWire> {
  const inMfa = (account: Awaited<ReturnType<typeof findAccount>>) =>
    account !== undefined && account.user_id === userId && dataOf(account).enrolled_in_mfa === true
  const before = await findAccount(services.db, app.id, PASSKEY_ACCOUNT_TYPE, input.credential_id)
  if (inMfa(before)) {
    if (input.remove_as_mfa !== true) throw new ApiError('PASSKEY_ENROLLED_IN_MFA')
    await proveFactorChange()
  }
  return services.db.transaction().execute(async (tx) => {
    await lockUser(tx, userId)
    const account = await findAccount(tx, app.id, PASSKEY_ACCOUNT_TYPE, input.credential_id)
    // Enrolled since the check above: its removal from MFA was not proven.
    if (inMfa(account) && !inMfa(before)) throw new ApiError('PASSKEY_ENROLLED_IN_MFA')
    await removeAccount(tx, app.id, userId, PASSKEY_ACCOUNT_TYPE, input.credential_id)
    if (inMfa(account)) await disablePasskeyFactorIfEmpty(tx, userId)
    return getUserWire(tx, userId)
  })
}
