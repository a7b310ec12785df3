import {
  mfaEnrollResponseSchema,
  mfaStatusResponseSchema,
  mfaUnenrollRequestSchema,
  mfaVerificationSchema,
  mfaVerifyRequestSchema,
  routes,
  totpEnrollmentInitResponseSchema,
  totpEnrollRequestSchema,
  userSchema,
} from '@latchkey/protocol'
import { z } from 'zod'
import { defineRoute } from '../http/route.ts'
import { limitWalletKeyRequests } from '../wallets/limit-wallet-key-requests.ts'
import {
  confirmTotpEnrollment,
  initTotpEnrollment,
  mfaStatus,
  unenrollMfa,
  verifyMfa,
} from './service.ts'

// MFA (docs/mfa.md). Everything that reads a secret, checks a code or changes
// factors is an enclave route (`auth: 'enclave'`: the enclave page's origin
// and its device key's proof), so a host-page script or a copied token can
// neither verify nor change factors. The factor changes also carry `mfa:
// true`: once the user has a factor, changing any needs a fresh verification.
// Each counts against the per-IP key-route budget, like the key routes.

export const mfaStatusRoute = defineRoute({
  method: 'get',
  path: routes.mfa,
  summary: "The signed-in user's MFA methods and this session's verification window",
  tags: ['mfa'],
  auth: 'user',
  response: mfaStatusResponseSchema,
  handler: async ({ services, auth }) => mfaStatus(services, auth),
})

export const mfaTotpInitRoute = defineRoute({
  method: 'post',
  path: routes.mfaTotpInit,
  summary: 'Start an authenticator-app setup: its secret and otpauth:// URI (enclave only)',
  tags: ['mfa'],
  auth: 'enclave',
  mfa: true,
  body: z.strictObject({}),
  response: totpEnrollmentInitResponseSchema,
  handler: async ({ c, services, app, auth }) => {
    await limitWalletKeyRequests(c, services)
    return initTotpEnrollment(services, app, auth)
  },
})

export const mfaTotpEnrollRoute = defineRoute({
  method: 'post',
  path: routes.mfaTotpEnroll,
  summary: 'Confirm the authenticator-app setup with a code; verifies this session (enclave only)',
  tags: ['mfa'],
  auth: 'enclave',
  mfa: true,
  body: totpEnrollRequestSchema,
  response: mfaEnrollResponseSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return confirmTotpEnrollment(services, app, auth, body.code)
  },
})

export const mfaVerifyRoute = defineRoute({
  method: 'post',
  path: routes.mfaVerify,
  summary: 'Verify an MFA code: opens a 15-minute window for this session (enclave only)',
  tags: ['mfa'],
  auth: 'enclave',
  body: mfaVerifyRequestSchema,
  response: mfaVerificationSchema,
  handler: async ({ c, services, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return verifyMfa(services, auth, body)
  },
})

export const mfaUnenrollRoute = defineRoute({
  method: 'post',
  path: routes.mfaUnenroll,
  summary: 'Remove an MFA method; needs a fresh verification (enclave only)',
  tags: ['mfa'],
  auth: 'enclave',
  mfa: true,
  body: mfaUnenrollRequestSchema,
  response: userSchema,
  handler: async ({ c, services, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return unenrollMfa(services, auth, body.method)
  },
})

export const mfaRoutes = [
  mfaStatusRoute,
  mfaTotpInitRoute,
  mfaTotpEnrollRoute,
  mfaVerifyRoute,
  mfaUnenrollRoute,
]
