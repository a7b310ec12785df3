import type { AuthMode, AuthResponse, UserWire } from '@latchkey/protocol'
import { type SmsChannel, SmsDeliveryError } from '../../adapters/sms/types.ts'
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
import { assertRegionAllowed, type ParsedPhone, parsePhone, phoneKey } from './phone.ts'
import { PHONE_ACCOUNT_TYPE } from './schema.ts'

/** Refuses when the app switched SMS login off (spec 01 §8 "Not allowed"). */
export function assertSmsAllowed(app: AppRecord): void {
  if (!toAppConfig(app).login_methods.sms) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
}

/**
 * The channel codes travel on for this app: WhatsApp when the app enables it,
 * otherwise SMS (spec 01 §9). Codes are bound to it (auth/otp.ts).
 */
export function smsChannelOf(app: AppRecord): SmsChannel {
  return toAppConfig(app).whatsapp_enabled ? 'whatsapp' : 'sms'
}

/** A number a code may be sent to or checked for: valid, and from an allowed region. */
function acceptPhone(services: Services, value: string): ParsedPhone {
  const phone = parsePhone(value)
  assertRegionAllowed(services.config.smsAllowedRegions, phone)
  return phone
}

/** The login-code text message. */
export function loginCodeText(appName: string, code: string): string {
  return `Your ${appName} login code is ${code}. It expires in 10 minutes. Do not share it.`
}

const deliveryError = (error: SmsDeliveryError): ApiError => {
  switch (error.reason) {
    case 'invalid-number':
      return new ApiError('INVALID_PHONE_NUMBER')
    case 'region':
      return new ApiError('SMS_REGION_NOT_ALLOWED')
    case 'rate-limited':
      return new ApiError('TOO_MANY_REQUESTS')
    default:
      return new ApiError('SMS_DELIVERY_FAILED')
  }
}

/**
 * Sends a login code by SMS or WhatsApp. The same answer whether or not the
 * number has an account (and whatever disableSignup says): sign-up rules
 * apply when the code is used (security bar 6). Returns the channel used.
 */
export async function sendSmsCode(
  services: Services,
  app: AppRecord,
  phoneNumber: string,
  ip: string | undefined,
): Promise<SmsChannel> {
  assertSmsAllowed(app)
  const { e164 } = acceptPhone(services, phoneNumber)
  const channel = smsChannelOf(app)
  const { code } = await issueOtp(services, { appId: app.id, channel, identifier: e164, ip })
  try {
    await services.sms.send({
      to: e164,
      channel,
      appId: app.id,
      body: loginCodeText(app.name, code),
    })
  } catch (error) {
    const message = error instanceof SmsDeliveryError ? error.message : (error as Error).name
    services.logger.error(`${channel} delivery failed (app ${app.id}): ${message}`)
    if (error instanceof SmsDeliveryError) throw deliveryError(error)
    throw new ApiError('SMS_DELIVERY_FAILED')
  }
  return channel
}

/** Logs in (or signs up) with a phone code; see spec 01 §4 "Email/SMS login". */
export async function authenticateWithSms(
  services: Services,
  app: AppRecord,
  input: { phoneNumber: string; code: string; mode: AuthMode },
  ip: string | undefined,
): Promise<AuthResponse> {
  assertSmsAllowed(app)
  const { e164 } = acceptPhone(services, input.phoneNumber)
  await verifyOtp(services, {
    appId: app.id,
    channel: smsChannelOf(app),
    identifier: e164,
    code: input.code,
    ip,
  })
  const now = services.now()
  const existing = await findAccount(services.db, app.id, PHONE_ACCOUNT_TYPE, e164)
  if (existing) {
    await touchAccount(services.db, existing.id, now)
    return startSession(services, app.id, existing.user_id, false)
  }
  if (input.mode === 'no-signup') throw new ApiError('USER_DOES_NOT_EXIST')
  try {
    const userId = await createUserWithAccount(
      services.db,
      app.id,
      { type: PHONE_ACCOUNT_TYPE, identifier: e164, data: { number: e164 } },
      now,
    )
    return startSession(services, app.id, userId, true)
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    // A concurrent sign-up with the same number won; log into that user.
    const winner = await findAccount(services.db, app.id, PHONE_ACCOUNT_TYPE, e164)
    if (!winner) throw error
    return startSession(services, app.id, winner.user_id, false)
  }
}

/** Adds a phone number to the signed-in user (one per user). */
export async function linkPhone(
  services: Services,
  app: AppRecord,
  userId: string,
  input: { phoneNumber: string; code: string },
  ip: string | undefined,
): Promise<UserWire> {
  assertSmsAllowed(app)
  const { e164 } = acceptPhone(services, input.phoneNumber)
  await verifyOtp(services, {
    appId: app.id,
    channel: smsChannelOf(app),
    identifier: e164,
    code: input.code,
    ip,
  })
  const accounts = await linkedAccountsOf(services.db, userId)
  const owner = await findAccount(services.db, app.id, PHONE_ACCOUNT_TYPE, e164)
  if (owner && owner.user_id !== userId)
    // Another user's only login method may move here (docs/access-control.md).
    throw await accountTransferOrRefusal(
      services,
      app,
      userId,
      owner,
      { type: PHONE_ACCOUNT_TYPE, identifier: e164, data: { number: e164 } },
      'ACCOUNT_ALREADY_LINKED',
    )
  if (accounts.some((a) => a.type === PHONE_ACCOUNT_TYPE))
    throw new ApiError(
      'CANNOT_LINK_MORE_OF_TYPE',
      'Only one phone number can be linked to an account.',
    )
  try {
    await insertAccount(
      services.db,
      app.id,
      userId,
      { type: PHONE_ACCOUNT_TYPE, identifier: e164, data: { number: e164 } },
      services.now(),
    )
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
    throw error
  }
  return getUserWire(services.db, userId)
}

/** Removes a phone number from the signed-in user, who must keep one account. */
export async function unlinkPhone(
  services: Services,
  app: AppRecord,
  userId: string,
  phoneNumber: string,
): Promise<UserWire> {
  const identifier = phoneKey(phoneNumber)
  return services.db.transaction().execute(async (tx) => {
    const accounts = await linkedAccountsOf(tx, userId)
    const target = accounts.find(
      (a) => a.type === PHONE_ACCOUNT_TYPE && a.identifier === identifier,
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

/** Replaces the user's phone number with a new one proven by a code sent to it. */
export async function updatePhone(
  services: Services,
  app: AppRecord,
  userId: string,
  input: { old_phone_number: string; new_phone_number: string; code: string },
  ip: string | undefined,
): Promise<UserWire> {
  assertSmsAllowed(app)
  const oldIdentifier = phoneKey(input.old_phone_number)
  const { e164: newIdentifier } = acceptPhone(services, input.new_phone_number)
  const accounts = await linkedAccountsOf(services.db, userId)
  // Spec 02 §5: a phone is required to update a phone.
  if (!accounts.some((a) => a.type === PHONE_ACCOUNT_TYPE)) throw new ApiError('NO_PHONE_TO_UPDATE')
  const current = accounts.find(
    (a) => a.type === PHONE_ACCOUNT_TYPE && a.identifier === oldIdentifier,
  )
  if (!current) throw new ApiError('ACCOUNT_NOT_LINKED')
  await verifyOtp(services, {
    appId: app.id,
    channel: smsChannelOf(app),
    identifier: newIdentifier,
    code: input.code,
    ip,
  })
  if (newIdentifier === oldIdentifier) return getUserWire(services.db, userId)
  const owner = await findAccount(services.db, app.id, PHONE_ACCOUNT_TYPE, newIdentifier)
  if (owner) throw new ApiError('ACCOUNT_ALREADY_LINKED')
  const now = services.now()
  try {
    await services.db
      .updateTable('linked_accounts')
      .set({
        identifier: newIdentifier,
        data: JSON.stringify({ number: newIdentifier }),
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
