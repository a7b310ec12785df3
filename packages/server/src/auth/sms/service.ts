import { type SmsChannel, SmsDeliveryError } from '../../adapters/sms/types.ts'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import { ApiError } from '../../errors.ts'
import { enrolledSmsPhone } from '../../mfa/factors.ts'
import type { CodeChannel } from '../code/service.ts'
import { assertRegionAllowed, parsePhone, phoneKey } from './phone.ts'
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
 * SMS/WhatsApp login as a code channel (../code/service.ts): the identifier
 * is the E.164 number. A number a code goes to, or that logs in, must be
 * valid and from an allowed region; one the user already has is only keyed
 * (`phoneKey`), so a number stored before a metadata change can still go.
 */
export const smsChannel: CodeChannel<SmsChannel> = {
  accountType: PHONE_ACCOUNT_TYPE,
  noun: 'phone number',
  noneToUpdate: 'NO_PHONE_TO_UPDATE',
  assertAllowed: assertSmsAllowed,
  // Security bar 8: the SMS MFA phone is not also an SMS login (mfa/sms.ts refuses the reverse).
  async assertLinkable(services, userId, identifier) {
    if ((await enrolledSmsPhone(services, userId)) === identifier)
      throw new ApiError(
        'MFA_SMS_PHONE_IS_LOGIN',
        'This phone number is your SMS verification number; it cannot also be a login method.',
      )
  },
  identify(services, _app, phoneNumber, use) {
    if (use === 'existing') return phoneKey(phoneNumber)
    const phone = parsePhone(phoneNumber)
    assertRegionAllowed(services.config.smsAllowedRegions, phone)
    return phone.e164
  },
  accountData: (number) => ({ number }),
  otpChannel: smsChannelOf,
  async deliver(services, app, { to, code, via }) {
    await services.sms.send({
      to,
      channel: via,
      appId: app.id,
      body: loginCodeText(app.name, code),
    })
  },
  deliveryFailure: (error) =>
    error instanceof SmsDeliveryError
      ? { detail: error.message, refusal: deliveryError(error) }
      : { detail: (error as Error).name, refusal: new ApiError('SMS_DELIVERY_FAILED') },
}
