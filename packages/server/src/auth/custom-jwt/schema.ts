import { z } from 'zod'

/**
 * Wire schemas of custom-JWT login live in @latchkey/protocol
 * (schemas/custom-auth.ts); re-exported next to the routes, as every login
 * method does. The app setting `custom_auth` is validated here.
 */
export {
  customJwtAuthenticateRequestSchema,
  customJwtLinkRequestSchema,
} from '@latchkey/protocol'

export const CUSTOM_ACCOUNT_TYPE = 'custom'

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/** https, or http on a loopback host (local development and tests). */
const jwksUrlSchema = z
  .string()
  .max(2048)
  .refine((value) => {
    try {
      const url = new URL(value)
      return (
        !url.username &&
        !url.password &&
        (url.protocol === 'https:' ||
          (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname)))
      )
    } catch {
      return false
    }
  }, 'jwks_url must be an https URL (http only on localhost)')

/**
 * The app setting `custom_auth`: where the app's signing keys are (exactly one
 * of a JWKS URL and a PEM public key) and what its tokens must say.
 *
 * @example
 * { jwks_url: 'https://auth.example.com/.well-known/jwks.json', issuer: 'https://auth.example.com', audience: 'latchkey' }
 */
export const customAuthSettingsSchema = z
  .object({
    jwks_url: jwksUrlSchema.optional(),
    public_key_pem: z
      .string()
      .max(16_384)
      .regex(/-----BEGIN PUBLIC KEY-----/, 'public_key_pem must be an SPKI PEM public key')
      .optional(),
    issuer: z.string().min(1).max(2048),
    audience: z.string().min(1).max(2048),
    /** The claim naming the user in the app's system (default `sub`). */
    subject_claim: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,64}$/)
      .optional(),
  })
  .refine((s) => (s.jwks_url === undefined) !== (s.public_key_pem === undefined), {
    message: 'Set exactly one of jwks_url and public_key_pem',
  })
export type CustomAuthSettings = z.infer<typeof customAuthSettingsSchema>

/**
 * Throws an Error naming the invalid fields of a `custom_auth` setting (never
 * their values); apps/service.ts calls it when an app is created or updated.
 */
export function assertCustomAuthSettings(value: unknown): void {
  const parsed = customAuthSettingsSchema.safeParse(value)
  if (!parsed.success)
    throw new Error(
      `Invalid custom_auth: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'custom_auth'}: ${i.message}`).join('; ')}`,
    )
}
