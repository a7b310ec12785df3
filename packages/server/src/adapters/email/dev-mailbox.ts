import type { Kysely } from 'kysely'
import type { Logger } from '../../config.ts'
import type { Database } from '../../db/types.ts'
import { isStoreUnavailable, unavailable } from '../../http/unavailable.ts'
import type { EmailMessage, EmailSender } from './types.ts'

/** The first 6-digit run of a message: the code, for the dev mailbox listing. */
export const extractCode = (text: string): string | null => text.match(/\b(\d{6})\b/)?.[1] ?? null

/**
 * Development delivery: stores the message in `dev_mailbox` and prints one
 * marked line. The only place a code is ever logged, and only in dev mode.
 */
export class DevMailboxSender implements EmailSender {
  readonly kind = 'dev-mailbox'

  constructor(
    private readonly db: Kysely<Database>,
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  async send(message: EmailMessage): Promise<void> {
    try {
      await this.db
        .insertInto('dev_mailbox')
        .values({
          app_id: message.appId ?? null,
          to: message.to,
          subject: message.subject,
          text: message.text,
          created_at: this.now(),
        })
        .execute()
    } catch (error) {
      // The mailbox is the database: its outage is the server's, not the mail's (a 503, not EMAIL_DELIVERY_FAILED).
      if (isStoreUnavailable(error)) throw unavailable()
      throw error
    }
    this.logger.info(
      `[dev mailbox] to ${message.to}: ${extractCode(message.text) ?? '(no code)'} — ${message.subject}`,
    )
  }
}

export interface DevMailboxMessage {
  to: string
  subject: string
  text: string
  code: string | null
  created_at: number
}

/** Messages newest first, optionally only those sent to `to` (case-insensitive). */
export async function listDevMailbox(
  db: Kysely<Database>,
  to?: string,
  limit = 50,
): Promise<DevMailboxMessage[]> {
  let query = db.selectFrom('dev_mailbox').selectAll().orderBy('id', 'desc').limit(limit)
  if (to) query = query.where('to', '=', to.trim().toLowerCase())
  const rows = await query.execute()
  return rows.map((r) => ({
    to: r.to,
    subject: r.subject,
    text: r.text,
    code: extractCode(r.text),
    created_at: Number(r.created_at),
  }))
}
