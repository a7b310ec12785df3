import { z } from 'zod'
import { userSchema } from './user.ts'

/** How the client stores the tokens of an auth response (spec 01 §4). */
export const sessionUpdateActionSchema = z.enum(['set', 'clear', 'ignore'])
export type SessionUpdateAction = z.infer<typeof sessionUpdateActionSchema>

export const authResponseSchema = z.object({
  user: userSchema,
  is_new_user: z.boolean(),
  /** The access token (ES256 JWT, about 1 h). */
  token: z.string().nullable(),
  refresh_token: z.string().nullable(),
  identity_token: z.string().nullable(),
  session_update_action: sessionUpdateActionSchema,
})
export type AuthResponse = z.infer<typeof authResponseSchema>

export const refreshRequestSchema = z.object({ refresh_token: z.string().max(200).optional() })
export type RefreshRequest = z.infer<typeof refreshRequestSchema>

export const logoutRequestSchema = z.object({ refresh_token: z.string().max(200).optional() })
export type LogoutRequest = z.infer<typeof logoutRequestSchema>

/** Claims of a Latchkey access token (header `typ: at+jwt`, alg ES256). */
export interface AccessTokenClaims {
  /** User id. */
  sub: string
  /** App id. */
  aud: string
  /** The server's issuer URL. */
  iss: string
  /** Session id. */
  sid: string
  iat: number
  exp: number
}
