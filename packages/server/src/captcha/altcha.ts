import { createChallenge, randomInt, verifySolution } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import type { Challenge } from 'altcha-lib/types'
import { z } from 'zod'
import type { AppRecord } from '../apps/service.ts'
import { ApiError } from '../errors.ts'
import type { Services } from '../http/context.ts'
import type { CaptchaCheck, VerifiedCaptcha } from './types.ts'

/*
 * ALTCHA (https://altcha.org), the self-hosted proof-of-work captcha: the
 * server signs a challenge, the browser's widget searches for the counter
 * that makes PBKDF2 give the signed key prefix, the server checks the
 * signatures. No third party is involved.
 */

/** A challenge must be solved and used within 5 minutes. */
export const ALTCHA_CHALLENGE_TTL_MS = 5 * 60_000
/** PBKDF2/SHA-256 iterations per attempt. */
export const ALTCHA_COST = 1_000
/**
 * The counter the browser must find is drawn from this range: about 0.3–1 s
 * of work in one thread (the widget runs several workers).
 */
export const ALTCHA_COUNTER_RANGE = { min: 500, max: 2_500 } as const
const ALGORITHM = 'PBKDF2/SHA-256'

/** HKDF purpose of the challenge keys (crypto/secrets.ts); each app gets its own HMAC key from it. */
const PURPOSE = 'captcha-altcha'

/** The two HMAC secrets of one app: challenge signature and derived-key signature. */
function secretsFor(services: Services, appId: string) {
  return {
    hmacSignatureSecret: services.secrets.mac(PURPOSE, `challenge|${appId}`),
    hmacKeySignatureSecret: services.secrets.mac(PURPOSE, `key|${appId}`),
  }
}

/**
 * A fresh signed challenge for `app`, bound to it (its id is in the signed
 * data and in the HMAC key) and expiring in {@link ALTCHA_CHALLENGE_TTL_MS}.
 */
export async function createAltchaChallenge(services: Services, app: AppRecord) {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: ALTCHA_COST,
    counter: randomInt(ALTCHA_COUNTER_RANGE.max, ALTCHA_COUNTER_RANGE.min),
    deriveKey,
    data: { app_id: app.id },
    expiresAt: Math.floor((services.now() + ALTCHA_CHALLENGE_TTL_MS) / 1000),
    ...secretsFor(services, app.id),
  })
}

/** What the widget submits, base64 of this JSON (altcha v3). */
const payloadSchema = z.object({
  challenge: z.object({
    parameters: z
      .object({
        algorithm: z.literal(ALGORITHM),
        nonce: z.string().regex(/^[0-9a-f]{16,128}$/),
        salt: z.string().max(256),
        cost: z.number(),
        keyLength: z.number(),
        keyPrefix: z.string().max(256),
        keySignature: z.string().max(256).optional(),
        expiresAt: z.number(),
        data: z.record(z.string(), z.unknown()).optional(),
      })
      .passthrough(),
    signature: z.string().min(1).max(256),
  }),
  solution: z.object({
    counter: z.number().int().nonnegative(),
    derivedKey: z.string().regex(/^[0-9a-f]{2,256}$/),
    time: z.number().optional(),
  }),
})

function decode(token: string): z.infer<typeof payloadSchema> {
  let json: unknown
  try {
    json = JSON.parse(Buffer.from(token, 'base64').toString('utf8'))
  } catch {
    throw new ApiError('CAPTCHA_FAILED')
  }
  const parsed = payloadSchema.safeParse(json)
  // The widget's test mode (`{challenge: null, test: true}`) lands here too.
  if (!parsed.success) throw new ApiError('CAPTCHA_FAILED')
  return parsed.data
}

/**
 * Checks an ALTCHA payload: signed by this server for this app (forged or
 * another app's: CAPTCHA_FAILED), solved (CAPTCHA_FAILED), not expired
 * (CAPTCHA_INVALID, on the server's clock). Single use is enforced by the
 * caller on the challenge's nonce, which the signature covers, so a payload
 * re-encoded differently is still the same challenge.
 */
export async function verifyAltchaToken({
  services,
  app,
  token,
}: CaptchaCheck): Promise<VerifiedCaptcha> {
  const payload = decode(token)
  const { parameters } = payload.challenge
  const result = await verifySolution({
    challenge: payload.challenge as Challenge,
    solution: payload.solution,
    deriveKey,
    ...secretsFor(services, app.id),
  })
  // altcha-lib checks expiry first (on the wall clock); the server's clock decides too.
  const expiresAt = parameters.expiresAt * 1000
  if (result.expired || expiresAt <= services.now()) throw new ApiError('CAPTCHA_INVALID')
  if (result.invalidSignature !== false || parameters.data?.app_id !== app.id)
    throw new ApiError('CAPTCHA_FAILED')
  if (!result.verified) throw new ApiError('CAPTCHA_FAILED')
  return { replayKey: `altcha:${parameters.nonce}`, expiresAt }
}
