import { routes, smartWalletLinkRequestSchema, userSchema } from '@latchkey/protocol'
import { defineRoute } from '../http/route.ts'
import { linkSmartWallet } from './link.ts'

// The nonce comes from routes.siweInit, which is rate-limited per IP
// (auth/siwe/nonces.ts SIGN_IN_INITS_PER_IP): each link spends one, so links
// are limited as the SIWE link is.
export const smartWalletLinkRoute = defineRoute({
  method: 'post',
  path: routes.smartWalletLink,
  summary: 'Link a smart wallet owned by one of the signed-in user’s embedded wallets',
  tags: ['smart-wallets'],
  auth: 'user',
  body: smartWalletLinkRequestSchema,
  response: userSchema,
  handler: ({ c, services, app, auth, body }) =>
    linkSmartWallet(services, app, auth.userId, c.req.header('origin'), body),
})

export const smartWalletLinkRoutes = [smartWalletLinkRoute]
