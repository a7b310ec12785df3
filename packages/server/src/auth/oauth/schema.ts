/**
 * Wire schemas of the OAuth login method live in @latchkey/protocol
 * (schemas/oauth.ts); this file re-exports them next to the routes, as every
 * login method does.
 */
export {
  oauthAuthenticateRequestSchema,
  oauthAuthResponseSchema,
  oauthInitRequestSchema,
  oauthInitResponseSchema,
  oauthLinkRequestSchema,
  oauthUnlinkRequestSchema,
} from '@latchkey/protocol'
