import type { AuthMode, AuthResponse, ErrorCode, UserWire } from '@latchkey/protocol'
import type { AppRecord } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { startSession, startSessionForNewUser } from '../../sessions/service.ts'
import {
  type AccountInput,
  findAccount,
  getUserWire,
  insertAccount,
  linkedAccountsOf,
  touchAccount,
  unlinkAccount,
} from '../../users/service.ts'
import { accountTransferOrRefusal } from '../../users/transfer.ts'
import { issueOtp, type OtpChannel, verifyOtp } from '../otp.ts'

/**
 * What an address is being identified for. `new`: a code goes to it, or an
 * account is made or linked for it (every rule of the app applies). `login`:
 * an account logs in with it. `existing`: the user already has it (unlink,
 * the old address of an update), so only its key: no rule added later may
 * strand it.
 */
export type AddressUse = 'new' | 'login' | 'existing'

/**
 * A way one-time codes reach a user, and the account they prove: all that
 * differs between email and SMS login (spec 01 §4 "Email/SMS login"). The
 * operations below are the one code login both share: the send with its
 * cooldown and caps, the hashed single-use code with its attempt cap
 * (../otp.ts), then log in or sign up, link, unlink, update.
 *
 * A new channel is one more object of this type beside its routes. The SMS
 * MFA factor is one (mfa/sms.ts): its own `otpChannel` ('sms-mfa', so its
 * codes never pass for login codes: security bar 4) and its own text in
 * `deliver`; it calls `sendCode` and `checkCode` with a `subject` (the user
 * and the purpose) and leaves the account operations alone. A 'totp' factor
 * has no code to deliver or store (the authenticator app derives it from a
 * sealed secret, RFC 6238): it shares the client's code screens (core's
 * flows/code-login.ts), not this module.
 *
 * @example
 * await sendCode(services, app, emailChannel, 'alice@example.com', ip)
 * await authenticateWithCode(services, app, emailChannel, { address, code, mode }, ip)
 */
export interface CodeChannel<Via extends OtpChannel = OtpChannel> {
  /** Linked-account type of the address ('email', 'phone'); its identifier is the normalised address. */
  accountType: string
  /** What one address is called in messages ('email address'). */
  noun: string
  /** The refusal of an update by a user who has no address of this type (spec 02 §5). */
  noneToUpdate: ErrorCode
  /** Refuses when the app switched this method off (spec 01 §8 "Not allowed"). */
  assertAllowed(app: AppRecord): void
  /**
   * Refuses an address the user may not add as a login method (link, the
   * new address of an update): SMS refuses the user's SMS MFA phone
   * (security bar 8). Checked before the code is.
   */
  assertLinkable?(services: Services, userId: string, identifier: string): Promise<void>
  /** The identifier (account key, code binding) of `address` for `use`; throws the channel's refusal. */
  identify(services: Services, app: AppRecord, address: string, use: AddressUse): string
  /** The account's `data` for an identifier. */
  accountData(identifier: string): Record<string, string>
  /** The OTP channel this app's codes travel on; codes are bound to it (../otp.ts). */
  otpChannel(app: AppRecord): Via
  /** Sends `code` to `to`; throws whatever the sender threw. */
  deliver(
    services: Services,
    app: AppRecord,
    message: { to: string; code: string; via: Via },
  ): Promise<void>
  /** A failed delivery: what the log may say of it (never the code), and the caller's refusal. */
  deliveryFailure(error: unknown): { detail: string; refusal: ApiError }
}

const accountOf = (channel: CodeChannel, identifier: string): AccountInput => ({
  type: channel.accountType,
  identifier,
  data: channel.accountData(identifier),
})

/**
 * Sends a code to `address`. The same answer whether or not the address has
 * an account (and whatever disableSignup says): sign-up rules apply when the
 * code is used, not when it is sent (security bar 6). Returns the OTP channel
 * the code went by. `subject` binds the code to more than its address
 * (../otp.ts `IssueOtpInput.subject`); `checkCode` must name the same.
 */
export async function sendCode<Via extends OtpChannel>(
  services: Services,
  app: AppRecord,
  channel: CodeChannel<Via>,
  address: string,
  ip: string | undefined,
  subject?: string,
): Promise<Via> {
  channel.assertAllowed(app)
  const identifier = channel.identify(services, app, address, 'new')
  const via = channel.otpChannel(app)
  const { code } = await issueOtp(services, {
    appId: app.id,
    channel: via,
    identifier,
    ip,
    ...(subject === undefined ? {} : { subject }),
  })
  try {
    await channel.deliver(services, app, { to: identifier, code, via })
  } catch (error) {
    // A store outage on the way (the dev mailbox is a table) keeps its 503.
    if (error instanceof ApiError && error.code === 'SERVICE_UNAVAILABLE') throw error
    const { detail, refusal } = channel.deliveryFailure(error)
    services.logger.error(`${via} delivery failed (app ${app.id}): ${detail}`)
    throw refusal
  }
  return via
}

/** Checks and consumes the code sent to `identifier` (../otp.ts `verifyOtp`: caps, single use). */
export function checkCode<Via extends OtpChannel>(
  services: Services,
  app: AppRecord,
  channel: CodeChannel<Via>,
  input: { identifier: string; code: string; subject?: string },
  ip: string | undefined,
): Promise<void> {
  const { identifier, code, subject } = input
  return verifyOtp(services, {
    appId: app.id,
    channel: channel.otpChannel(app),
    identifier,
    code,
    ip,
    ...(subject === undefined ? {} : { subject }),
  })
}

/** Logs in (or signs up) with a code; see spec 01 §4 "Email/SMS login". */
export async function authenticateWithCode(
  services: Services,
  app: AppRecord,
  channel: CodeChannel,
  input: { address: string; code: string; mode: AuthMode },
  ip: string | undefined,
): Promise<AuthResponse> {
  channel.assertAllowed(app)
  const identifier = channel.identify(services, app, input.address, 'login')
  await checkCode(services, app, channel, { identifier, code: input.code }, ip)
  const now = services.now()
  const existing = await findAccount(services.db, app.id, channel.accountType, identifier)
  if (existing) {
    await touchAccount(services.db, existing.id, now)
    return startSession(services, app.id, existing.user_id, false)
  }
  if (input.mode === 'no-signup') throw new ApiError('USER_DOES_NOT_EXIST')
  // A sign-up: the address must be one a new account may have.
  channel.identify(services, app, identifier, 'new')
  try {
    return await startSessionForNewUser(services, app.id, accountOf(channel, identifier), now)
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    // A concurrent sign-up with the same address won; log into that user.
    const winner = await findAccount(services.db, app.id, channel.accountType, identifier)
    if (!winner) throw error
    return startSession(services, app.id, winner.user_id, false)
  }
}

/** Adds an address, proven by the code sent to it, to the signed-in user (one per user). */
export async function linkCodeAccount(
  services: Services,
  app: AppRecord,
  channel: CodeChannel,
  userId: string,
  input: { address: string; code: string },
  ip: string | undefined,
): Promise<UserWire> {
  channel.assertAllowed(app)
  const identifier = channel.identify(services, app, input.address, 'new')
  await channel.assertLinkable?.(services, userId, identifier)
  await checkCode(services, app, channel, { identifier, code: input.code }, ip)
  const accounts = await linkedAccountsOf(services.db, userId)
  const owner = await findAccount(services.db, app.id, channel.accountType, identifier)
  const account = accountOf(channel, identifier)
  if (owner && owner.user_id !== userId)
    // Another user's only login method may move here (docs/access-control.md).
    throw await accountTransferOrRefusal(
      services,
      app,
      userId,
      owner,
      account,
      'ACCOUNT_ALREADY_LINKED',
    )
  if (accounts.some((a) => a.type === channel.accountType))
    throw new ApiError(
      'CANNOT_LINK_MORE_OF_TYPE',
      `Only one ${channel.noun} can be linked to an account.`,
    )
  try {
    await insertAccount(services.db, app.id, userId, account, services.now())
  } catch (error) {
    if (isUniqueViolation(error)) throw new ApiError('ACCOUNT_ALREADY_LINKED')
    throw error
  }
  return getUserWire(services.db, userId)
}

/** Removes an address from the signed-in user, who must keep one login method (wallets are none). */
export function unlinkCodeAccount(
  services: Services,
  app: AppRecord,
  channel: CodeChannel,
  userId: string,
  address: string,
): Promise<UserWire> {
  const identifier = channel.identify(services, app, address, 'existing')
  return unlinkAccount(services.db, app.id, userId, channel.accountType, identifier)
}

/** Replaces the user's address with a new one, proven by a code sent to the new address. */
export async function updateCodeAccount(
  services: Services,
  app: AppRecord,
  channel: CodeChannel,
  userId: string,
  input: { oldAddress: string; newAddress: string; code: string },
  ip: string | undefined,
): Promise<UserWire> {
  channel.assertAllowed(app)
  const oldIdentifier = channel.identify(services, app, input.oldAddress, 'existing')
  const newIdentifier = channel.identify(services, app, input.newAddress, 'new')
  const accounts = await linkedAccountsOf(services.db, userId)
  // Spec 02 §5: 'User is required to have an email address to update it' (likewise a phone).
  if (!accounts.some((a) => a.type === channel.accountType))
    throw new ApiError(channel.noneToUpdate)
  const current = accounts.find(
    (a) => a.type === channel.accountType && a.identifier === oldIdentifier,
  )
  if (!current) throw new ApiError('ACCOUNT_NOT_LINKED')
  if (newIdentifier !== oldIdentifier)
    await channel.assertLinkable?.(services, userId, newIdentifier)
  await checkCode(services, app, channel, { identifier: newIdentifier, code: input.code }, ip)
  if (newIdentifier === oldIdentifier) return getUserWire(services.db, userId)
  const owner = await findAccount(services.db, app.id, channel.accountType, newIdentifier)
  if (owner) throw new ApiError('ACCOUNT_ALREADY_LINKED')
  const now = services.now()
  try {
    await services.db
      .updateTable('linked_accounts')
      .set({
        identifier: newIdentifier,
        data: JSON.stringify(channel.accountData(newIdentifier)),
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
