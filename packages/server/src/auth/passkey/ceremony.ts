import type { Selectable } from 'kysely'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import type { LinkedAccountsTable } from '../../db/types.ts'
import { ApiError } from '../../errors.ts'
import { type PasskeyChallenge, passkeyFailed } from './challenges.ts'

/*
 * What every passkey ceremony shares: the caller, the relying party checks
 * and the passkey account's data. The relying party is the host of the page
 * the user is on (the request's Origin, one of the app's origins); every
 * ceremony answers a stored single-use challenge.
 */

/** Who is calling: the request's Origin, IP and User-Agent headers. */
export interface PasskeyCaller {
  origin: string | undefined
  ip?: string | undefined
  userAgent?: string | undefined
}

/** A passkey account's data (JSON in linked_accounts.data). */
export interface PasskeyData {
  /** base64url COSE public key. */
  public_key: string
  counter: number
  transports: string[]
  aaguid: string
  authenticator_name: string | null
  created_with_browser: string | null
  created_with_os: string | null
  created_with_device: string | null
  /** Set by MFA enrollment (spec 02); such a passkey can not be unlinked. */
  enrolled_in_mfa: boolean
  backed_up: boolean
  device_type: string
  /** base64url WebAuthn user handle the credential was created with. */
  webauthn_user_id: string
  rp_id: string
  /** Epoch ms of the last refused non-increasing signCount (security bar 25). */
  counter_regression_at?: number
}

/** Relying party and origin of a ceremony. */
export interface Ceremony {
  origin: string
  rpId: string
}

/** LOGIN_METHOD_NOT_ALLOWED unless the app switched passkeys on (`login_methods.passkey`). */
export function assertEnabled(app: AppRecord): void {
  if (!toAppConfig(app).login_methods.passkey) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
}

/**
 * The relying party of this request: its Origin, which must be one of the
 * app's origins (the server's own origin, which resolveApp lets through,
 * hosts no app page), and that origin's host as RP ID.
 */
export function ceremonyOf(app: AppRecord, origin: string | undefined): Ceremony {
  if (!origin)
    throw new ApiError(
      'INVALID_PAYLOAD',
      'Passkeys need the Origin header of the page the user is on',
    )
  if (!app.allowedOrigins.includes(origin)) throw new ApiError('ORIGIN_NOT_ALLOWED')
  return { origin, rpId: new URL(origin).hostname }
}

/** The stored challenge was issued for this relying party and this page. */
export function assertSameCeremony(
  row: PasskeyChallenge,
  relyingParty: string,
  ceremony: Ceremony,
) {
  if (relyingParty !== row.rp_id || ceremony.rpId !== row.rp_id)
    throw passkeyFailed('relying_party_mismatch')
  if (ceremony.origin !== row.origin) throw passkeyFailed('origin_mismatch')
}

export const dataOf = (row: Selectable<LinkedAccountsTable>) => JSON.parse(row.data) as PasskeyData
