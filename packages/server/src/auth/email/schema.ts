/**
 * Wire schemas of the email login method live in @latchkey/protocol
 * (schemas/email.ts); this file re-exports them next to the routes, as every
 * login method does.
 */
export {
  emailAuthenticateRequestSchema,
  emailInitRequestSchema,
  emailLinkRequestSchema,
  emailUnlinkRequestSchema,
  emailUpdateRequestSchema,
} from '@latchkey/protocol'

export const EMAIL_ACCOUNT_TYPE = 'email'
