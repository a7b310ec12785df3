import { z } from 'zod'

/** 32 random bytes, base64url without padding (43 characters), made and kept by the client. */
export const guestCredentialSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{43}$/, 'A guest credential is 32 random bytes in base64url')

export const guestAuthenticateRequestSchema = z.object({ guest_credential: guestCredentialSchema })
export type GuestAuthenticateRequest = z.input<typeof guestAuthenticateRequestSchema>
