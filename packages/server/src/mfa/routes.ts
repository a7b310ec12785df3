import {
  mfaEnrollResponseSchema,
  mfaStatusResponseSchema,
  mfaUnenrollRequestSchema,
  mfaVerificationSchema,
  mfaVerifyRequestSchema,
  passkeyMfaEnrollRequestSchema,
  passkeyMfaInitResponseSchema,
  routes,
  smsMfaEnrollRequestSchema,
  smsMfaInitRequestSchema,
  successSchema,
  totpEnrollmentInitResponseSchema,
  totpEnrollRequestSchema,
  userSchema,
} from '@latchkey/protocol'
import { z } from 'zod'
import { clientIp } from '../http/client-ip.ts'
import { defineRoute } from '../http/route.ts'
import { limitWalletKeyRequests } from '../wallets/limit-wallet-key-requests.ts'
import { enrollPasskeyMfa, initPasskeyMfa } from './passkey.ts'
import {
  confirmTotpEnrollment,
  initTotpEnrollment,
  mfaStatus,
  unenrollMfa,
  verifyMfa,
} from './service.ts'
import { confirmSmsEnrollment, sendSmsMfaCode } from './sms.ts'
import { clearMfaVerification } from './verifications.ts'

// MFA (docs/mfa.md). Everything that reads a secret, checks a code, sends
// one or changes factors is an enclave route (`auth: 'enclave'`: the enclave
// page's origin and its device key's proof), so a host-page script or a
// copied token can neither verify nor change factors. The factor changes also
// carry the MFA check: once the user has a factor, changing any needs a fresh
// verification. Each counts against the per-IP key-route budget, like the
// key routes.

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

export const mfaSmsInitRoute = defineRoute({
  method: 'post',
  path: routes.mfaSmsInit,
  summary:
    'Send an SMS MFA code: to a new phone (`enroll`, which needs a fresh verification once the user has MFA) or to the enrolled phone (`verify`) (enclave only)',
  tags: ['mfa'],
  auth: 'enclave',
  // Enrolling a new phone is a factor change; a code to the enrolled phone is how a verification starts.
  mfa: (body) => body.action === 'enroll',
  body: smsMfaInitRequestSchema,
  response: successSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return sendSmsMfaCode(services, app, auth, body, clientIp(c, services))
  },
})

export const mfaSmsEnrollRoute = defineRoute({
  method: 'post',
  path: routes.mfaSmsEnroll,
  summary:
    'Confirm the SMS MFA setup with the code sent to the phone; verifies this session (enclave only)',
  tags: ['mfa'],
  auth: 'enclave',
  mfa: true,
  body: smsMfaEnrollRequestSchema,
  response: mfaEnrollResponseSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return confirmSmsEnrollment(services, app, auth, body, clientIp(c, services))
  },
})

export const mfaPasskeyInitRoute = defineRoute({
  method: 'post',
  path: routes.mfaPasskeyInit,
  summary: "Assertion options for verifying with one of the user's MFA passkeys (enclave only)",
  tags: ['mfa'],
  auth: 'enclave',
  body: z.strictObject({}),
  response: passkeyMfaInitResponseSchema,
  handler: async ({ c, services, app, auth }) => {
    await limitWalletKeyRequests(c, services)
    return initPasskeyMfa(services, app, auth, clientIp(c, services))
  },
})

export const mfaPasskeyEnrollRoute = defineRoute({
  method: 'post',
  path: routes.mfaPasskeyEnroll,
  summary: "Enable some of the user's passkeys for MFA (enclave only)",
  tags: ['mfa'],
  auth: 'enclave',
  mfa: true,
  body: passkeyMfaEnrollRequestSchema,
  response: mfaEnrollResponseSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return enrollPasskeyMfa(services, app, auth, body.credential_ids)
  },
})

export const mfaVerifyRoute = defineRoute({
  method: 'post',
  path: routes.mfaVerify,
  summary:
    'Verify MFA with a code or a passkey: opens a 15-minute window for this session (enclave only)',
  tags: ['mfa'],
  auth: 'enclave',
  body: mfaVerifyRequestSchema,
  response: mfaVerificationSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return verifyMfa(services, app, auth, body, clientIp(c, services))
  },
})

export const mfaUnenrollRoute = defineRoute({
  method: 'post',
  path: routes.mfaUnenroll,
  summary: 'Remove an MFA method, or passkeys from MFA; needs a fresh verification (enclave only)',
  tags: ['mfa'],
  auth: 'enclave',
  mfa: true,
  body: mfaUnenrollRequestSchema,
  response: userSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return unenrollMfa(services, app, auth, body)
  },
})

// A user route: ending the window only takes this session's privilege away,
// so whoever holds the session (the enclave, or the host at logout) may.
export const mfaClearRoute = defineRoute({
  method: 'post',
  path: routes.mfaClear,
  summary: "End this session's MFA verification window",
  tags: ['mfa'],
  auth: 'user',
  body: z.strictObject({}),
  response: successSchema,
  handler: async ({ services, auth }) => {
    await clearMfaVerification(services, auth)
    return { success: true as const }
  },
})

export const mfaRoutes = [
  mfaStatusRoute,
  mfaTotpInitRoute,
  mfaTotpEnrollRoute,
  mfaSmsInitRoute,
  mfaSmsEnrollRoute,
  mfaPasskeyInitRoute,
  mfaPasskeyEnrollRoute,
  mfaVerifyRoute,
  mfaUnenrollRoute,
  mfaClearRoute,
]
