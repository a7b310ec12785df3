import type {
  MfaEnrollResponse,
  MfaVerification,
  SmsMfaEnrollRequest,
  SmsMfaInitRequest,
} from '@latchkey/protocol'
import type { AppRecord } from '../apps/service.ts'
import { type CodeChannel, checkCode, sendCode } from '../auth/code/service.ts'
import { PHONE_ACCOUNT_TYPE } from '../auth/sms/schema.ts'
import { smsChannel } from '../auth/sms/service.ts'
import { ApiError } from '../errors.ts'
import type { AuthContext, Services } from '../http/context.ts'
import { newId } from '../ids.ts'
import { getUserWire } from '../users/service.ts'
import { claimMfaAttempt, clearMfaAttempts } from './attempts.ts'
import {
  assertMethodAllowed,
  enrolledSmsPhone,
  findEnabledFactor,
  sealFactorSecret,
} from './factors.ts'
import { recordMfaVerification } from './verifications.ts'

/*
 * The SMS factor (docs/mfa.md "SMS"): a six-digit code sent by SMS to the
 * phone the user enrolled. Its codes are the login codes' machinery
 * (auth/code/service.ts, auth/otp.ts): CSPRNG, stored only as an HMAC, 10
 * minutes, single use, 5 tries per code, the resend cooldown and the
 * per-number and per-IP caps — on their own OTP channel, `sms-mfa`, so an
 * MFA code never passes for a login code to the same phone or the other way
 * round, and bound to the user and the purpose (enroll, verify). Each code
 * checked also counts against the user's MFA attempts (mfa/attempts.ts). The
 * enrolled phone is stored sealed (mfa/factors.ts).
 */

/** The SMS factor's text message (the dev outbox shows its code). */
export function mfaCodeText(appName: string, code: string): string {
  return `Your ${appName} verification code is ${code}. It expires in 10 minutes. Do not share it.`
}

/**
 * SMS MFA as a code channel: the number as SMS login reads it (valid, from an
 * allowed region), delivered by SMS even where the app sends login codes by
 * WhatsApp. Whether the app offers SMS MFA is checked by enrollment only, so
 * an enrolled factor stays verifiable when the app stops offering it.
 */
export const smsMfaChannel: CodeChannel<'sms-mfa'> = {
  accountType: PHONE_ACCOUNT_TYPE,
  noun: 'phone number',
  noneToUpdate: 'NO_PHONE_TO_UPDATE',
  assertAllowed: () => {},
  identify: (services, app, phoneNumber, use) =>
    smsChannel.identify(services, app, phoneNumber, use),
  accountData: (number) => ({ number }),
  otpChannel: () => 'sms-mfa',
  async deliver(services, app, { to, code }) {
    await services.sms.send({
      to,
      channel: 'sms',
      appId: app.id,
      body: mfaCodeText(app.name, code),
    })
  },
  deliveryFailure: (error) => smsChannel.deliveryFailure(error),
}

/** Binds a code to the user and to what it is for. */
const subjectOf = (userId: string, purpose: 'enroll' | 'verify') => `mfa:${userId}:${purpose}`

/**
 * A code check in MFA's words: a wrong, expired or missing code is 422
 * MFA_INVALID_CODE (spec 02 §8 'The code you entered is not valid'); the
 * code's own caps keep their codes (TOO_MANY_ATTEMPTS: ask for a new code).
 */
async function checkMfaCode(
  services: Services,
  app: AppRecord,
  input: { identifier: string; code: string; subject: string },
  ip: string | undefined,
): Promise<void> {
  try {
    await checkCode(services, app, smsMfaChannel, input, ip)
  } catch (error) {
    if (error instanceof ApiError && error.code === 'INVALID_CODE')
      throw new ApiError('MFA_INVALID_CODE')
    throw error
  }
}

/**
 * Security bar 8, spec 02 §6 ("SMS MFA is disabled if the user's SMS is
 * already an auth method"): the phone the user logs in with is not also
 * their second factor — whoever receives its codes would hold both.
 */
async function assertNotLoginPhone(services: Services, userId: string, phone: string) {
  const login = await services.db
    .selectFrom('linked_accounts')
    .select('id')
    .where('user_id', '=', userId)
    .where('type', '=', PHONE_ACCOUNT_TYPE)
    .where('identifier', '=', phone)
    .executeTakeFirst()
  if (login) throw new ApiError('MFA_SMS_PHONE_IS_LOGIN')
}

/** What an enrollment of `phoneNumber` needs: the app offers SMS, the user has none, not the login phone. */
async function enrollablePhone(
  services: Services,
  app: AppRecord,
  userId: string,
  phoneNumber: string,
): Promise<string> {
  assertMethodAllowed(app, 'sms')
  if (await findEnabledFactor(services.db, userId, 'sms'))
    throw new ApiError('MFA_ALREADY_ENROLLED')
  const phone = smsMfaChannel.identify(services, app, phoneNumber, 'new')
  await assertNotLoginPhone(services, userId, phone)
  return phone
}

/**
 * `POST mfa/sms/init`. `enroll`: sends a code to a new phone (the route asks
 * a user who has a factor for a fresh verification first); refused for a
 * method the app does not offer, a user who has SMS already, and the user's
 * SMS login phone. `verify`: sends a code to the enrolled phone (400
 * MFA_NOT_ENROLLED without one); it needs no verification, it is how one
 * starts.
 */
export async function sendSmsMfaCode(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  request: SmsMfaInitRequest,
  ip: string | undefined,
): Promise<{ success: true }> {
  if (request.action === 'enroll') {
    const phone = await enrollablePhone(services, app, auth.userId, request.phone_number)
    await sendCode(services, app, smsMfaChannel, phone, ip, subjectOf(auth.userId, 'enroll'))
  } else {
    const phone = await enrolledSmsPhone(services, auth.userId)
    if (phone === null) throw new ApiError('MFA_NOT_ENROLLED')
    await sendCode(services, app, smsMfaChannel, phone, ip, subjectOf(auth.userId, 'verify'))
  }
  return { success: true }
}

/**
 * `POST mfa/sms/enroll`: the code sent to `phone_number` enables the SMS
 * factor with that phone (sealed), and the session counts as verified (the
 * user just proved the factor on this device).
 */
export async function confirmSmsEnrollment(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  request: SmsMfaEnrollRequest,
  ip: string | undefined,
): Promise<MfaEnrollResponse> {
  const phone = await enrollablePhone(services, app, auth.userId, request.phone_number)
  await claimMfaAttempt(services, auth.userId)
  const subject = subjectOf(auth.userId, 'enroll')
  await checkMfaCode(services, app, { identifier: phone, code: request.code, subject }, ip)
  const now = services.now()
  const id = newId()
  const ref = { appId: app.id, userId: auth.userId, factorId: id, method: 'sms' as const }
  const inserted = await services.db
    .insertInto('mfa_factors')
    .values({
      id,
      app_id: app.id,
      user_id: auth.userId,
      method: 'sms',
      secret: sealFactorSecret(services, ref, phone),
      enabled: 1,
      last_used_step: null,
      created_at: now,
      enabled_at: now,
      expires_at: null,
    })
    .onConflict((oc) => oc.columns(['user_id', 'method']).doNothing())
    .executeTakeFirst()
  // A concurrent confirmation got there first.
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1)
    throw new ApiError('MFA_ALREADY_ENROLLED')
  await clearMfaAttempts(services, auth.userId)
  services.logger.info(`MFA method sms enrolled by its owner: ${auth.userId}`)
  const verification = await recordMfaVerification(services, auth, 'sms')
  return { user: await getUserWire(services.db, auth.userId), verification }
}

/** `mfa/verify` with an SMS code: the code sent by `verify` to the enrolled phone. */
export async function verifySmsCode(
  services: Services,
  app: AppRecord,
  auth: AuthContext,
  code: string,
  ip: string | undefined,
): Promise<MfaVerification> {
  const phone = await enrolledSmsPhone(services, auth.userId)
  if (phone === null) throw new ApiError('MFA_NOT_ENROLLED')
  await claimMfaAttempt(services, auth.userId)
  const subject = subjectOf(auth.userId, 'verify')
  await checkMfaCode(services, app, { identifier: phone, code, subject }, ip)
  await clearMfaAttempts(services, auth.userId)
  return recordMfaVerification(services, auth, 'sms')
}
