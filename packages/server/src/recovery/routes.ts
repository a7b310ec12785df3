import {
  recoveryOAuthAuthenticateRequestSchema,
  recoveryOAuthAuthenticateResponseSchema,
  recoveryOAuthInitIcloudRequestSchema,
  recoveryOAuthInitRequestSchema,
  recoveryOAuthInitResponseSchema,
  routes,
} from '@latchkey/protocol'
import { defineRoute } from '../http/route.ts'
import { limitWalletKeyRequests } from '../wallets/limit-wallet-key-requests.ts'
import { authenticateConsent, initGoogleDriveConsent, initIcloudConsent } from './service.ts'

export const recoveryOAuthInitRoute = defineRoute({
  method: 'post',
  path: routes.recoveryOAuthInit,
  summary: 'Start a Google Drive consent for cloud recovery (PKCE S256, single-use state)',
  tags: ['recovery'],
  auth: 'user',
  body: recoveryOAuthInitRequestSchema,
  response: recoveryOAuthInitResponseSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return initGoogleDriveConsent(services, app, auth, body)
  },
})

export const recoveryOAuthInitIcloudRoute = defineRoute({
  method: 'post',
  path: routes.recoveryOAuthInitIcloud,
  summary: 'Start an iCloud (CloudKit) sign-in for cloud recovery',
  tags: ['recovery'],
  auth: 'user',
  body: recoveryOAuthInitIcloudRequestSchema,
  response: recoveryOAuthInitResponseSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return initIcloudConsent(services, app, auth, body)
  },
})

export const recoveryOAuthAuthenticateRoute = defineRoute({
  method: 'post',
  path: routes.recoveryOAuthAuthenticate,
  summary: "Exchange a cloud consent's result for provider access (called by the enclave)",
  tags: ['recovery'],
  // The enclave's exchange: the provider access it returns reaches the recovery key,
  // so with MFA it needs a fresh verification like the recovery material (docs/mfa.md).
  auth: 'enclave',
  mfa: true,
  body: recoveryOAuthAuthenticateRequestSchema,
  response: recoveryOAuthAuthenticateResponseSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return authenticateConsent(services, app, auth, body)
  },
})

export const recoveryRoutes = [
  recoveryOAuthInitRoute,
  recoveryOAuthInitIcloudRoute,
  recoveryOAuthAuthenticateRoute,
]
