import type { AuthResponse } from '@latchkey/protocol'
import { type AppRecord, toAppConfig } from '../../apps/service.ts'
import { isUniqueViolation } from '../../db/connect.ts'
import { ApiError } from '../../errors.ts'
import type { Services } from '../../http/context.ts'
import { newUserId, sha256 } from '../../ids.ts'
import { startSession } from '../../sessions/service.ts'
import { findAccount, getUserWire, insertAccount, touchAccount } from '../../users/service.ts'
import { assertSignUpAllowed } from '../../users/sign-up.ts'
import { enqueueWebhookEvent } from '../../webhooks/outbox.ts'
import { GUEST_ACCOUNT_TYPE } from './schema.ts'

/** Refuses when the app switched guest login off (login_methods.guest). */
export function assertGuestAllowed(app: AppRecord): void {
  if (!toAppConfig(app).login_methods.guest) throw new ApiError('LOGIN_METHOD_NOT_ALLOWED')
}

/**
 * Logs in the guest user of a guest credential, creating it on first use.
 * The server stores only SHA-256 of the credential (32 CSPRNG bytes the
 * client keeps), so a database read does not yield a login. This call never
 * links: a session on the request is ignored, and a credential maps to its
 * own guest user only (spec 01 §6 "The guest flow cannot link").
 */
export async function authenticateAsGuest(
  services: Services,
  app: AppRecord,
  credential: string,
): Promise<AuthResponse> {
  assertGuestAllowed(app)
  const identifier = sha256(credential)
  const now = services.now()
  const existing = await findAccount(services.db, app.id, GUEST_ACCOUNT_TYPE, identifier)
  if (existing) {
    await touchAccount(services.db, existing.id, now)
    return startSession(services, app.id, existing.user_id, false)
  }
  const userId = newUserId()
  try {
    await services.db.transaction().execute(async (tx) => {
      // Allowlist (a guest matches no entry) and user limit (docs/access-control.md).
      await assertSignUpAllowed(tx, app.id, { type: GUEST_ACCOUNT_TYPE, identifier, data: {} })
      await tx
        .insertInto('users')
        .values({ id: userId, app_id: app.id, created_at: now, has_accepted_terms: 0, is_guest: 1 })
        .execute()
      await insertAccount(
        tx,
        app.id,
        userId,
        { type: GUEST_ACCOUNT_TYPE, identifier, data: {} },
        now,
      )
      const wire = async () => ({ user: await getUserWire(tx, userId) })
      await enqueueWebhookEvent(tx, app.id, 'user.created', wire, now)
    })
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    // The same credential raced itself (two tabs): log into the winner.
    const winner = await findAccount(services.db, app.id, GUEST_ACCOUNT_TYPE, identifier)
    if (!winner) throw error
    return startSession(services, app.id, winner.user_id, false)
  }
  return startSession(services, app.id, userId, true)
}
