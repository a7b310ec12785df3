import { createHash } from 'node:crypto'
import { formatUserMessage } from '@latchkey/protocol'
import { safeEqual } from '../../crypto/secrets.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { newSecret } from '../../ids.ts'

/*
 * The two secrets of cross-app (docs/cross-app.md "Security"): the code a
 * provider user hands a requester (single use, 2 minutes, PKCE-bound) and the
 * transact token the requester keeps. Both are random 256-bit strings stored
 * only as HMACs keyed from the master key.
 */

/** Spec 03 §9: the requester waits 2 minutes for the popup; the code lives as long. */
export const CROSS_APP_CODE_TTL_MS = 2 * 60_000
/** A transact token lasts 30 days; a new login or link replaces it. */
export const CROSS_APP_TOKEN_TTL_MS = 30 * 24 * 60 * 60_000

export const crossAppCodeHash = (services: Pick<Services, 'secrets'>, code: string) =>
  services.secrets.mac('cross-app-codes', code)
export const crossAppTokenHash = (services: Pick<Services, 'secrets'>, token: string) =>
  services.secrets.mac('cross-app-tokens', token)

export interface CodeBinding {
  providerAppId: string
  requesterAppId: string
  providerUserId: string
  origin: string
  codeChallenge: string
}

/** Records a new code; expired codes are deleted on the way. */
export async function issueCrossAppCode(
  services: Services,
  binding: CodeBinding,
): Promise<{ code: string; expiresAt: number }> {
  const now = services.now()
  const code = newSecret()
  const expiresAt = now + CROSS_APP_CODE_TTL_MS
  await services.db.transaction().execute(async (tx) => {
    await tx.deleteFrom('cross_app_codes').where('expires_at', '<', now).execute()
    await tx
      .insertInto('cross_app_codes')
      .values({
        code_hash: crossAppCodeHash(services, code),
        provider_app_id: binding.providerAppId,
        requester_app_id: binding.requesterAppId,
        provider_user_id: binding.providerUserId,
        origin: binding.origin,
        code_challenge: binding.codeChallenge,
        created_at: now,
        expires_at: expiresAt,
        used_at: null,
      })
      .execute()
  })
  return { code, expiresAt }
}

/**
 * Spends a code: one conditional UPDATE marks it used only when it exists for
 * this provider and requester, is unexpired and unused, so of two concurrent
 * trades exactly one wins. It is spent before the PKCE check: a wrong
 * verifier burns the code. Anything else is CROSS_APP_CONNECT_FAILED.
 */
export async function consumeCrossAppCode(
  services: Services,
  input: {
    providerAppId: string
    requesterAppId: string
    code: string
    codeVerifier: string
    origin: string | undefined
    providerAppName: string
  },
): Promise<{ providerUserId: string }> {
  const now = services.now()
  const failed = (reason: string) =>
    new ApiError(
      'CROSS_APP_CONNECT_FAILED',
      formatUserMessage('CROSS_APP_CONNECT_FAILED', { app: input.providerAppName }).title,
      { reason },
    )
  const row = await services.db
    .updateTable('cross_app_codes')
    .set({ used_at: now })
    .where('code_hash', '=', crossAppCodeHash(services, input.code))
    .where('provider_app_id', '=', input.providerAppId)
    .where('requester_app_id', '=', input.requesterAppId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning(['provider_user_id', 'code_challenge', 'origin'])
    .executeTakeFirst()
  if (!row) throw failed('invalid_code')
  // RFC 7636 §4.6, S256 only.
  const computed = createHash('sha256').update(input.codeVerifier).digest('base64url')
  if (!safeEqual(computed, row.code_challenge)) throw failed('pkce')
  // A browser trade comes from the page the code was posted to.
  if (input.origin !== undefined && input.origin !== row.origin) throw failed('origin')
  return { providerUserId: row.provider_user_id }
}

/**
 * A new transact token for the requester user; an older token of the same
 * pair of users is replaced.
 */
export async function issueCrossAppToken(
  services: Services,
  binding: {
    providerAppId: string
    requesterAppId: string
    providerUserId: string
    requesterUserId: string
    readOnly: boolean
  },
): Promise<{ token: string; expiresAt: number }> {
  const now = services.now()
  const token = newSecret()
  const expiresAt = now + CROSS_APP_TOKEN_TTL_MS
  await services.db.transaction().execute(async (tx) => {
    await tx
      .deleteFrom('cross_app_tokens')
      .where((eb) =>
        eb.or([
          eb('expires_at', '<', now),
          eb.and([
            eb('requester_user_id', '=', binding.requesterUserId),
            eb('provider_user_id', '=', binding.providerUserId),
            eb('requester_app_id', '=', binding.requesterAppId),
          ]),
        ]),
      )
      .execute()
    await tx
      .insertInto('cross_app_tokens')
      .values({
        token_hash: crossAppTokenHash(services, token),
        provider_app_id: binding.providerAppId,
        requester_app_id: binding.requesterAppId,
        provider_user_id: binding.providerUserId,
        requester_user_id: binding.requesterUserId,
        read_only: binding.readOnly ? 1 : 0,
        created_at: now,
        expires_at: expiresAt,
      })
      .execute()
  })
  return { token, expiresAt }
}

/** The live token of this provider user, or CROSS_APP_INVALID_TOKEN. */
export async function findCrossAppToken(
  services: Services,
  providerAppId: string,
  providerUserId: string,
  token: string,
) {
  const row = await services.db
    .selectFrom('cross_app_tokens')
    .selectAll()
    .where('token_hash', '=', crossAppTokenHash(services, token))
    .where('provider_app_id', '=', providerAppId)
    .where('provider_user_id', '=', providerUserId)
    .where('expires_at', '>', services.now())
    .executeTakeFirst()
  if (!row) throw new ApiError('CROSS_APP_INVALID_TOKEN')
  return row
}
