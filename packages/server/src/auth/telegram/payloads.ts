import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { sha256 } from '../../ids.ts'
import { TELEGRAM_MAX_AUTH_AGE_S } from './verify.ts'

/**
 * Spent records outlive their payload's acceptance by this much before they
 * are swept, so a server node whose clock runs ahead never sweeps a record
 * another node would still need.
 */
const SWEEP_MARGIN_MS = 5 * 60_000

/**
 * Spends a verified Telegram payload (Login Widget result or Mini App
 * initData): a payload logs in or links once. Its signature (`hash`, which
 * covers every field, auth_date included) is recorded by an insert whose
 * primary key refuses a second use, also a concurrent one, on SQLite and
 * PostgreSQL alike and across server nodes. The record lives as long as the
 * payload could pass the auth_date check; older records are swept here.
 * A replay is AUTHENTICATION_FAILED, like any other refused payload.
 *
 * @example
 * const identity = verifyTelegramLoginWidget(result, botToken, { now })
 * await spendTelegramPayload(services, app.id, { hash: result.hash, authDate: identity.auth_date, now })
 */
export async function spendTelegramPayload(
  services: Services,
  appId: string,
  payload: { hash: string; authDate: number; now: number },
): Promise<void> {
  const { now } = payload
  await services.db
    .deleteFrom('telegram_payloads')
    .where('expires_at', '<', now - SWEEP_MARGIN_MS)
    .execute()
  try {
    await services.db
      .insertInto('telegram_payloads')
      .values({
        // verify.ts accepts the hex in either case: one signature, one record.
        payload_hash: sha256(`telegram:${payload.hash.toLowerCase()}`),
        app_id: appId,
        created_at: now,
        // The first second at which the auth_date check refuses the payload.
        expires_at: (payload.authDate + TELEGRAM_MAX_AUTH_AGE_S + 1) * 1000,
      })
      .execute()
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('AUTHENTICATION_FAILED', undefined, { reason: 'replayed' })
    throw error
  }
}
