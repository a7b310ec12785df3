import {
  MFA_ATTEMPT_WINDOW_MS,
  MFA_MAX_CODE_ATTEMPTS,
  MFA_VERIFICATION_TTL_MS,
} from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import {
  type MfaMethod,
  mfaUnenrollRequestSchema,
  mfaVerifyRequestSchema,
  passkeyMfaEnrollRequestSchema,
  smsMfaEnrollRequestSchema,
  smsMfaInitRequestSchema,
  totpEnrollRequestSchema,
  type UserWire,
} from '@latchkey/protocol/schemas'

/** The one code the fake MFA routes accept (TOTP and SMS alike). */
export const FAKE_MFA_CODE = '123456'
/** What the fake passkey init answers. */
export const FAKE_PASSKEY_OPTIONS = {
  relying_party: 'auth.example.com',
  options: { challenge: 'Y2hhbGxlbmdl', allowCredentials: [] },
}

const ORDER: readonly MfaMethod[] = ['totp', 'sms', 'passkey']

/**
 * An access token shaped like the server's (a JWT whose payload carries
 * `sub` and `sid`), unsigned: the fake server reads `sub` as the user and
 * `sid` as the session, as the enclave reads `sid` for its warm keys.
 *
 * @example
 * const token = sessionToken('user-alice', 'session-1')
 */
export function sessionToken(owner: string, sid: string, exp?: number): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
  return `${part({ alg: 'ES256', typ: 'JWT' })}.${part({ sub: owner, sid, ...(exp === undefined ? {} : { exp }) })}.c2ln`
}

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const invalid = () =>
  json(400, { code: 'INVALID_PAYLOAD', message: 'The request payload is invalid' })

/**
 * The MFA half of the fake server (fake-server.test-helper.ts), as
 * docs/mfa.md describes the real one: factors per user, a verification
 * window per session (its `sid`, or the token itself), MFA_REQUIRED with
 * `details.mfa_methods` on flagged routes, 5 codes per window then
 * MFA_MAX_ATTEMPTS with `retry_after`. Any code but {@link FAKE_MFA_CODE}
 * is MFA_INVALID_CODE.
 */
export function createFakeMfa(options: { now: () => number }) {
  const { now } = options
  const factors = new Map<string, Set<MfaMethod>>()
  const windows = new Map<string, number>()
  const attempts = new Map<string, { count: number; until: number }>()

  const methodsOf = (owner: string): MfaMethod[] => ORDER.filter((m) => factors.get(owner)?.has(m))
  const verifiedUntil = (session: string): number | null => {
    const until = windows.get(session)
    return until !== undefined && now() < until ? until : null
  }

  function open(session: string, method: MfaMethod) {
    const at = now()
    windows.set(session, at + MFA_VERIFICATION_TTL_MS)
    return {
      method,
      verified_at: Math.floor(at / 1000),
      expires_at: Math.floor((at + MFA_VERIFICATION_TTL_MS) / 1000),
    }
  }

  /** 403 MFA_REQUIRED when the user has a factor and this session no window; else null. */
  function required(owner: string, session: string): Response | null {
    const methods = methodsOf(owner)
    if (methods.length === 0 || verifiedUntil(session) !== null) return null
    return json(403, {
      code: 'MFA_REQUIRED',
      message: 'MFA verification required',
      details: { mfa_methods: methods },
    })
  }

  /** Counts a code, then compares it; null when right. */
  function checkCode(owner: string, code: string): Response | null {
    const current = attempts.get(owner)
    const claim =
      current && now() < current.until
        ? current
        : { count: 0, until: now() + MFA_ATTEMPT_WINDOW_MS }
    if (claim.count >= MFA_MAX_CODE_ATTEMPTS)
      return json(429, {
        code: 'MFA_MAX_ATTEMPTS',
        message: 'Too many attempts, try again in 15 minutes.',
        retry_after: Math.ceil((claim.until - now()) / 1000),
      })
    attempts.set(owner, { ...claim, count: claim.count + 1 })
    if (code !== FAKE_MFA_CODE)
      return json(422, { code: 'MFA_INVALID_CODE', message: 'The code you entered is not valid' })
    attempts.delete(owner)
    return null
  }

  function enable(owner: string, method: MfaMethod) {
    const set = factors.get(owner) ?? new Set()
    set.add(method)
    factors.set(owner, set)
  }

  /** Answers an MFA route, or null for any other path. */
  function handle(
    path: string,
    owner: string,
    session: string,
    body: unknown,
    userOf: (owner: string) => UserWire,
  ): Response | null {
    const enrolled = (method: MfaMethod, verification: object | null) => {
      enable(owner, method)
      return json(200, { user: userOf(owner), verification })
    }
    switch (path) {
      case routes.mfaVerify: {
        const parsed = mfaVerifyRequestSchema.safeParse(body)
        if (!parsed.success) return invalid()
        const request = parsed.data
        if (!factors.get(owner)?.has(request.method))
          return json(400, { code: 'MFA_NOT_ENROLLED', message: 'Not enrolled' })
        if (request.method !== 'passkey') {
          const refused = checkCode(owner, request.code)
          if (refused) return refused
        }
        return json(200, open(session, request.method))
      }
      case routes.mfaSmsInit: {
        const parsed = smsMfaInitRequestSchema.safeParse(body)
        if (!parsed.success) return invalid()
        if (parsed.data.action === 'enroll')
          return required(owner, session) ?? json(200, { success: true })
        if (!factors.get(owner)?.has('sms'))
          return json(400, { code: 'MFA_NOT_ENROLLED', message: 'Not enrolled' })
        return json(200, { success: true })
      }
      case routes.mfaPasskeyInit:
        return json(200, FAKE_PASSKEY_OPTIONS)
      case routes.mfaClear:
        windows.delete(session)
        return json(200, { success: true })
    }
    const refused = required(owner, session)
    switch (path) {
      case routes.mfaTotpInit:
        return refused ?? json(200, { secret: 'JBSWY3DPEHPK3PXP', auth_url: 'otpauth://totp/x' })
      case routes.mfaTotpEnroll: {
        if (refused) return refused
        const parsed = totpEnrollRequestSchema.safeParse(body)
        if (!parsed.success) return invalid()
        return checkCode(owner, parsed.data.code) ?? enrolled('totp', open(session, 'totp'))
      }
      case routes.mfaSmsEnroll: {
        if (refused) return refused
        const parsed = smsMfaEnrollRequestSchema.safeParse(body)
        if (!parsed.success) return invalid()
        return checkCode(owner, parsed.data.code) ?? enrolled('sms', open(session, 'sms'))
      }
      case routes.mfaPasskeyEnroll: {
        if (refused) return refused
        if (!passkeyMfaEnrollRequestSchema.safeParse(body).success) return invalid()
        return enrolled('passkey', null)
      }
      case routes.mfaUnenroll: {
        if (refused) return refused
        const parsed = mfaUnenrollRequestSchema.safeParse(body)
        if (!parsed.success) return invalid()
        if (!factors.get(owner)?.delete(parsed.data.method))
          return json(400, { code: 'MFA_NOT_ENROLLED', message: 'Not enrolled' })
        return json(200, userOf(owner))
      }
      default:
        return null
    }
  }

  return {
    handle,
    required,
    methodsOf,
    /** `warm_until` of the auth share's answer: the window's end with a factor, else null. */
    warmUntil: (owner: string, session: string) =>
      methodsOf(owner).length === 0 ? null : verifiedUntil(session),
    /** Test setup: gives `owner` a factor without the routes. */
    enroll: enable,
    /** Test setup: opens a window for `session` (its `sid`) without a code. */
    verify: (session: string) => open(session, 'totp'),
  }
}
