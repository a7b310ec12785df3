import type {
  enclaveRequestSchemas,
  MfaEnrollResponse,
  MfaVerification,
  PasskeyMfaInitResponse,
  TotpEnrollmentInitResponse,
  UserWire,
} from '@latchkey/protocol/schemas'
import type { z } from 'zod'
import type { ServerApi } from './api.ts'

type Payload<E extends keyof typeof enclaveRequestSchemas> = z.output<
  (typeof enclaveRequestSchemas)[E]
>

export interface MfaHandlerDeps {
  api: ServerApi
}

export interface MfaHandlers {
  'latchkey:mfa:init-verify'(
    data: Payload<'latchkey:mfa:init-verify'>,
  ): Promise<Record<string, never> | PasskeyMfaInitResponse>
  'latchkey:mfa:verify'(data: Payload<'latchkey:mfa:verify'>): Promise<MfaVerification>
  'latchkey:mfa:init-enrollment'(
    data: Payload<'latchkey:mfa:init-enrollment'>,
  ): Promise<TotpEnrollmentInitResponse | Record<string, never>>
  'latchkey:mfa:submit-enrollment'(
    data: Payload<'latchkey:mfa:submit-enrollment'>,
  ): Promise<MfaEnrollResponse>
  'latchkey:mfa:unenroll'(data: Payload<'latchkey:mfa:unenroll'>): Promise<{ user: UserWire }>
  'latchkey:mfa:clear'(data: Payload<'latchkey:mfa:clear'>): Promise<Record<string, never>>
}

/**
 * The enclave's MFA handlers (merged into `createHandlers`; docs/mfa.md).
 * Every MFA route is an enclave route: it answers only to this page with its
 * device key's proof, so the host asks the enclave, which calls the route
 * and answers the host with the route's answer. A refusal reaches the host
 * as the server's code with its `details` and `retry_after` (errors.ts):
 * MFA_INVALID_CODE, MFA_MAX_ATTEMPTS with `retry_after`, MFA_REQUIRED with
 * `details.mfa_methods` (changing factors needs a fresh verification once
 * the user has one).
 *
 * - `init-verify`: SMS sends a code to the enrolled phone (`{}`); passkey
 *   answers the assertion options `{ relying_party, options }` the host
 *   hands to `navigator.credentials.get()`.
 * - `verify`: the request as is; answers `{ method, verified_at, expires_at }`.
 * - `init-enrollment`: TOTP `{ secret, auth_url }`; SMS sends a code to
 *   the new phone (`{}`).
 * - `submit-enrollment`: `{ user, verification }` (null for passkeys).
 * - `unenroll`: `{ user }`.
 * - `clear`: ends this session's window at the server (`{}`). The page's
 *   warm keys are dropped first, whatever the server answers (handlers.ts).
 *
 * @example
 * const handlers = { ...createMfaHandlers({ api }) }
 * await handlers['latchkey:mfa:verify']({ access_token, request: { method: 'totp', code } })
 */
export function createMfaHandlers(deps: MfaHandlerDeps): MfaHandlers {
  const { api } = deps
  return {
    async 'latchkey:mfa:init-verify'(data) {
      if (data.method === 'passkey') return api.mfaPasskeyInit(data.access_token)
      await api.mfaSmsInit(data.access_token, { action: 'verify' })
      return {}
    },

    'latchkey:mfa:verify': (data) => api.mfaVerify(data.access_token, data.request),

    async 'latchkey:mfa:init-enrollment'(data) {
      const { request } = data
      if (request.method === 'totp') return api.mfaTotpInit(data.access_token)
      await api.mfaSmsInit(data.access_token, {
        action: 'enroll',
        phone_number: request.phone_number,
      })
      return {}
    },

    async 'latchkey:mfa:submit-enrollment'(data) {
      const { access_token: token, request } = data
      switch (request.method) {
        case 'totp':
          return api.mfaTotpEnroll(token, request.code)
        case 'sms':
          return api.mfaSmsEnroll(token, { phone_number: request.phone_number, code: request.code })
        case 'passkey':
          return api.mfaPasskeyEnroll(token, { credential_ids: request.credential_ids })
      }
    },

    async 'latchkey:mfa:unenroll'(data) {
      return { user: await api.mfaUnenroll(data.access_token, data.request) }
    },

    async 'latchkey:mfa:clear'(data) {
      await api.mfaClear(data.access_token)
      return {}
    },
  }
}
