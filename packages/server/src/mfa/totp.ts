import { TOTP_PERIOD_S } from '@latchkey/protocol'
import { generateSecret, generateURI, verify } from 'otplib'

/*
 * Authenticator-app codes (RFC 6238 through otplib): SHA-1, 6 digits, 30 s
 * steps, the parameters every authenticator app reads from an otpauth:// URI.
 * The time is always the server's (`services.now()`), never the client's
 * (security bar 7).
 */

/** A new TOTP secret: 20 random bytes (160 bits, RFC 4226 §4's recommendation), base32. */
export const newTotpSecret = (): string => generateSecret({ length: 20 })

/** Neither the issuer nor the account name of a key URI may hold a colon (it separates them). */
const withoutColons = (text: string) => text.replaceAll(':', '').trim()

/**
 * The `otpauth://totp/Issuer:label?secret=…&issuer=…` URI an authenticator
 * app scans (spec 02 "Scan QR code").
 *
 * @example
 * totpAuthUrl({ issuer: 'Demo', label: 'a@b.co', secret }) // 'otpauth://totp/Demo:a%40b.co?secret=…&issuer=Demo'
 */
export function totpAuthUrl(input: { issuer: string; label: string; secret: string }): string {
  return generateURI({
    issuer: withoutColons(input.issuer) || 'Latchkey',
    label: withoutColons(input.label),
    secret: input.secret,
    period: TOTP_PERIOD_S,
  })
}

/** The RFC 6238 time step of an instant (epoch ms). */
export const totpStepAt = (nowMs: number): number => Math.floor(nowMs / 1000 / TOTP_PERIOD_S)

/**
 * The time step `code` belongs to, if it is the secret's code for the
 * current step or the one just before or after (±1 step of drift), and that
 * step is later than `lastUsedStep`; otherwise null. The caller consumes the
 * step (mfa/service.ts) so the code works once.
 *
 * @example
 * const step = await matchTotpStep({ secret, code: '123456', nowMs: services.now(), lastUsedStep: null })
 */
export async function matchTotpStep(input: {
  secret: string
  code: string
  nowMs: number
  lastUsedStep: number | null
}): Promise<number | null> {
  const { lastUsedStep } = input
  // Every step of the window is already used (otplib refuses such an afterTimeStep).
  if (lastUsedStep !== null && lastUsedStep >= totpStepAt(input.nowMs) + 1) return null
  try {
    const result = await verify({
      secret: input.secret,
      token: input.code,
      epoch: Math.floor(input.nowMs / 1000),
      period: TOTP_PERIOD_S,
      epochTolerance: TOTP_PERIOD_S,
      ...(lastUsedStep === null ? {} : { afterTimeStep: lastUsedStep }),
    })
    // otplib types TOTP and HOTP results as one union; a TOTP match carries its step.
    return result.valid && 'timeStep' in result ? result.timeStep : null
  } catch {
    // A token of another shape (the route's schema lets only 6 digits through).
    return null
  }
}
