import type { Kysely } from 'kysely'
import { decodeCursor, newestFirstPage } from '../db/newest-first.ts'
import type { Database } from '../db/types.ts'
import { ApiError } from '../errors.ts'
import { newId } from '../ids.ts'

// The console's audit log (migration 023, docs/console.md "Audit log"): every
// change an admin makes in the console is one row — who, what, on which app
// and target, when — written after the change succeeded. Never a secret: the
// detail of a settings change names the keys, not their values.

/** What an admin did in the console. */
export type AdminAction =
  | 'app.create'
  | 'app.settings_update'
  | 'app.paymaster_signer_create'
  | 'app.credentials_set'
  | 'app.credentials_deleted'
  | 'user.delete'
  | 'user.sessions_revoke'
  | 'user.session_revoke'
  | 'user.mfa_reset'

export interface AdminAuditEntry {
  id: string
  admin_id: string
  /** The admin's name now (null for a credential this server no longer has). */
  admin_name: string | null
  action: AdminAction
  app_id: string | null
  target: string | null
  detail: Record<string, unknown>
  /** Epoch ms. */
  created_at: number
}

export interface AdminAuditRecord {
  action: AdminAction
  appId?: string | null
  target?: string | null
  detail?: Record<string, unknown>
}

/**
 * Writes one audit row for a change `adminId` made.
 *
 * @example
 * await recordAdminAction(db, admin.id, { action: 'user.delete', appId, target: userId }, now)
 */
export async function recordAdminAction(
  db: Kysely<Database>,
  adminId: string,
  record: AdminAuditRecord,
  now: number,
): Promise<void> {
  await db
    .insertInto('admin_audit')
    .values({
      id: newId(),
      admin_id: adminId,
      action: record.action,
      app_id: record.appId ?? null,
      target: record.target ?? null,
      detail: JSON.stringify(record.detail ?? {}),
      created_at: now,
    })
    .execute()
}

/** Largest page of the audit log. */
export const AUDIT_PAGE_MAX = 50

/**
 * The audit log, newest first, `limit` rows a page; `next_cursor` continues
 * after the page's last row (db/newest-first.ts).
 */
export async function listAdminAudit(
  db: Kysely<Database>,
  options: { cursor?: string | undefined; limit?: number | undefined } = {},
): Promise<{ data: AdminAuditEntry[]; next_cursor: string | null }> {
  const limit = Math.min(options.limit ?? AUDIT_PAGE_MAX, AUDIT_PAGE_MAX)
  let query = db
    .selectFrom('admin_audit')
    .leftJoin('admin_credentials', 'admin_credentials.id', 'admin_audit.admin_id')
    .select([
      'admin_audit.id',
      'admin_audit.admin_id',
      'admin_credentials.name as admin_name',
      'admin_audit.action',
      'admin_audit.app_id',
      'admin_audit.target',
      'admin_audit.detail',
      'admin_audit.created_at',
    ])
  if (options.cursor) {
    const after = decodeCursor(options.cursor)
    if (!after) throw new ApiError('INVALID_PAYLOAD', 'The cursor is not valid.')
    query = query.where((eb) =>
      eb.or([
        eb('admin_audit.created_at', '<', after.createdAt),
        eb.and([
          eb('admin_audit.created_at', '=', after.createdAt),
          eb('admin_audit.id', '<', after.id),
        ]),
      ]),
    )
  }
  const rows = await query
    .orderBy('admin_audit.created_at', 'desc')
    .orderBy('admin_audit.id', 'desc')
    .limit(limit + 1)
    .execute()
  return newestFirstPage(rows, limit, (row) => ({
    id: row.id,
    admin_id: row.admin_id,
    admin_name: row.admin_name ?? null,
    action: row.action as AdminAction,
    app_id: row.app_id,
    target: row.target,
    detail: JSON.parse(row.detail) as Record<string, unknown>,
    created_at: Number(row.created_at),
  }))
}
