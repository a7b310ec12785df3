/**
 * Wire schemas of the SMS/WhatsApp login method live in @latchkey/protocol
 * (schemas/sms.ts); this file re-exports them next to the routes, as every
 * login method does.
 */
export {
  smsAuthenticateRequestSchema,
  smsInitRequestSchema,
  smsInitResponseSchema,
  smsLinkRequestSchema,
  smsUnlinkRequestSchema,
  smsUpdateRequestSchema,
} from '@latchkey/protocol'

/** Linked-account type of a phone number (identifier = E.164). */
export const PHONE_ACCOUNT_TYPE = 'phone'
