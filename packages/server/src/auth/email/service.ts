import {
  type AuthMode,
  type AuthResponse,
  isPlusEmail,
  normalizeEmail,
  type UserWire,
} from '@latchkey/protocol'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { startSession } from '../../sessions/service.ts'
import {
  createUserWithAccount,
  findAccount,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
  touchAccount,
  WALLET_ACCOUNT_TYPE,
} from '../../users/service.ts'
import { accountTransferOrRefusal } from '../../users/transfer.ts'
import { issueOtp, verifyOtp } from '../otp.ts'
import { EMAIL_ACCOUNT_TYPE } from './schema.ts'

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  )

/** Refuses when the app switched email login off (spec 01 §8 "Not allowed"). */
export function assertEmailAllowed(app: AppRecord): void {
  if (!toAppConfig(app).login_methods.email) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
}

function assertAddressAllowed(app: AppRecord, email: string): void {
  if (toAppConfig(app).disable_plus_emails && isPlusEmail(email))
    throw new ApiError('PLUS_EMAIL_NOT_ALLOWED')
}

/** The login-code email (subject, text, minimal HTML). */
export function loginCodeEmail(
  appName: string,
  code: string,
): { subject: string; text: string; html: string } {
  const subject = `Your ${appName} login code is ${code}`
  const text = `Your ${appName} login code is ${code}.\n\nIt expires in 10 minutes. If you did not ask for it, ignore this email.`
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif"><p>Your ${escapeHtml(appName)} login code is</p><p style="font-size:28px;font-weight:600;letter-spacing:4px">${code}</p><p style="color:#666">It expires in 10 minutes. If you did not ask for it, ignore this email.</p></body></html>`
  return { subject, text, html }
}

/**
 * Sends a login code. The same answer whether or not the address has an
 * account (and whatever disableSignup says): sign-up rules apply when the
 * code is used, not when it is sent (security bar 6).
 */
export async function sendEmailCode(
  services: Services,
  app: AppRecord,
  email: string,
  ip: string | undefined,
): Promise<void> {
  assertEmailAllowed(app)
  assertAddressAllowed(app, email)
  const identifier = normalizeEmail(email)
  const { code } = await issueOtp(services, { appId: app.id, channel: 'email', identifier, ip })
  try {
    await services.email.send({ to: identifier, appId: app.id, ...loginCodeEmail(app.name, code) })
  } catch (error) {
    services.logger.error(`email delivery failed (app ${app.id}): ${(error as Error).name}`)
    throw new ApiError('EMAIL_DELIVERY_FAILED')
  }
}

/** Logs in (or signs up) with an email code; see spec 01 §4 "Email/SMS login". */
export async function authenticateWithEmail(
  services: Services,
  app: AppRecord,
  input: { email: string; code: string; mode: AuthMode },
  ip: string | undefined,
): Promise<AuthResponse> {
  assertEmailAllowed(app)
  const identifier = normalizeEmail(input.email)
  await verifyOtp(services, { appId: app.id, channel: 'email', identifier, code: input.code, ip })
  const now = services.now()
  const existing = await findAccount(services.db, app.id, EMAIL_ACCOUNT_TYPE, identifier)
  if (existing) {
    await touchAccount(services.db, existing.id, now)
    return startSession(services, app.id, existing.user_id, false)
  }
  if (input.mode === 'no-signup') throw new ApiError('USER_DOES_NOT_EXIST')
  assertAddressAllowed(app, identifier)
  try {
    const userId = await createUserWithAccount(
      services.db,
      app.id,
      { type: EMAIL_ACCOUNT_TYPE, identifier, data: { address: identifier } },
      now,
    )
    return startSession(services, app.id, userId, true)
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    // A concurrent sign-up with the same address won; log into that user.
    const winner = await findAccount(services.db, app.id, EMAIL_ACCOUNT_TYPE, identifier)
    if (!winner) throw error
    return startSession(services, app.id, winner.user_id, false)
  }
}

/** Adds an email to the signed-in user (one per user). */
export async function linkEmail(
  services: Services,
  app: AppRecord,
  userId: string,
  input: { email: string; code: string },
  ip: string | undefined,
): Promise<UserWire> {
  assertEmailAllowed(app)
  assertAddressAllowed(app, input.email)
  const identifier = normalizeEmail(input.email)
  await verifyOtp(services, { appId: app.id, channel: 'email', identifier, code: input.code, ip })
  const accounts = await linkedAccountsOf(services.db, userId)
  const owner = await findAccount(services.db, app.id, EMAIL_ACCOUNT_TYPE, identifier)
  if (owner && owner.user_id !== userId)
    // Another user's only login method may move here (docs/access-control.md).
    throw await accountTransferOrRefusal(
      services,
      app,
      userId,
      owner,
      { type: EMAIL_ACCOUNT_TYPE, identifier, data: { address: identifier } },
      'ACCOUNT_ALREADY_LINKED',
    )
  if (accounts.some((a) => a.type === EMAIL_ACCOUNT_TYPE))
    throw new ApiError(
      'CANNOT_LINK_MORE_OF_TYPE',
      'Only one email address can be linked to an account.',
    )
  try {
    await insertAccount(
      services.db,
      app.id,
      userId,
      { type: EMAIL_ACCOUNT_TYPE, identifier, data: { address: identifier } },
      services.now(),
    )
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
    throw error
  }
  return getUserWire(services.db, userId)
}

/** Removes an email from the signed-in user, who must keep one login method (wallets are none). */
export async function unlinkEmail(
  services: Services,
  app: AppRecord,
  userId: string,
  address: string,
): Promise<UserWire> {
  const identifier = normalizeEmail(address)
  return services.db.transaction().execute(async (tx) => {
    const accounts = await linkedAccountsOf(tx, userId)
    const target = accounts.find(
      (a) => a.type === EMAIL_ACCOUNT_TYPE && a.identifier === identifier,
    )
    if (!target) throw new ApiError('ACCOUNT_NOT_LINKED')
    // Embedded wallets are not login methods (issue 16, 4a: counting them let the last go).
    if (accounts.filter((a) => a.type !== WALLET_ACCOUNT_TYPE).length <= 1)
      throw new ApiError('CANNOT_UNLINK_LAST_ACCOUNT')
    await tx
      .deleteFrom('linked_accounts')
      .where('id', '=', target.id)
      .where('app_id', '=', app.id)
      .execute()
    return getUserWire(tx, userId)
  })
}

/** Replaces the user's email with a new one proven by a code sent to the new address. */
export async function updateEmail(
  services: Services,
  app: AppRecord,
  userId: string,
  input: { oldAddress: string; newAddress: string; code: string },
  ip: string | undefined,
): Promise<UserWire> {
  assertEmailAllowed(app)
  assertAddressAllowed(app, input.newAddress)
  const oldIdentifier = normalizeEmail(input.oldAddress)
  const newIdentifier = normalizeEmail(input.newAddress)
  const accounts = await linkedAccountsOf(services.db, userId)
  // Spec 02 §5: 'User is required to have an email address to update it.'
  if (!accounts.some((a) => a.type === EMAIL_ACCOUNT_TYPE)) throw new ApiError('NO_EMAIL_TO_UPDATE')
  const current = accounts.find(
    (a) => a.type === EMAIL_ACCOUNT_TYPE && a.identifier === oldIdentifier,
  )
  if (!current) throw new ApiError('ACCOUNT_NOT_LINKED')
  await verifyOtp(services, {
    appId: app.id,
    channel: 'email',
    identifier: newIdentifier,
    code: input.code,
    ip,
  })
  if (newIdentifier === oldIdentifier) return getUserWire(services.db, userId)
  const owner = await findAccount(services.db, app.id, EMAIL_ACCOUNT_TYPE, newIdentifier)
  if (owner) throw new ApiError('ACCOUNT_ALREADY_LINKED')
  const now = services.now()
  try {
    await services.db
      .updateTable('linked_accounts')
      .set({
        identifier: newIdentifier,
        data: JSON.stringify({ address: newIdentifier }),
        first_verified_at: now,
        latest_verified_at: now,
      })
      .where('id', '=', current.id)
      .execute()
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
    throw error
  }
  return getUserWire(services.db, userId)
}
