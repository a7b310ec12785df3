import type { AppRecord } from '../apps/service.ts'
import type { Services } from '../http/context.ts'

/** One token to check for one app's request. */
export interface CaptchaCheck {
  services: Services
  app: AppRecord
  token: string
  /** The caller's IP (http/client-ip.ts), passed to Turnstile as `remoteip`. */
  remoteIp?: string
  /**
   * The request's Origin header, already refused by http/route.ts unless the
   * app allows it (or it is this server's own); absent on server-to-server calls.
   */
  origin?: string
}

/** A token that passed: what identifies it for the single-use record, and until when it could be replayed. */
export interface VerifiedCaptcha {
  replayKey: string
  /** Epoch ms. */
  expiresAt: number
}

/**
 * One captcha provider (Turnstile, ALTCHA): checks a token. Throws ApiError
 * CAPTCHA_INVALID / CAPTCHA_FAILED / CAPTCHA_TIMEOUT.
 */
export type CaptchaVerifier = (check: CaptchaCheck) => Promise<VerifiedCaptcha>
