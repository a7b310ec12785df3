/**
 * Wire schemas of Sign-In With Solana live in @latchkey/protocol
 * (schemas/external-wallet.ts); re-exported next to the routes, as every
 * login method does.
 */
export {
  siwsAuthenticateRequestSchema,
  siwsInitRequestSchema,
  siwsInitResponseSchema,
  siwsLinkRequestSchema,
  siwsSignInInputSchema,
  siwsUnlinkRequestSchema,
} from '@latchkey/protocol'
