import type { Logger } from '../../config.ts'
import { extractCode } from '../email/dev-mailbox.ts'
import type { SmsChannel, SmsMessage, SmsSender } from './types.ts'

export interface DevOutboxMessage {
  to: string
  channel: SmsChannel
  body: string
  code: string | null
  created_at: number
}

/** Messages kept in memory (oldest dropped first). */
export const DEV_OUTBOX_LIMIT = 500

/**
 * Development delivery of SMS/WhatsApp messages: kept in process memory and
 * listed by GET /api/v1/dev/outbox, next to the dev mailbox (and only when
 * the dev mailbox is on). Prints one marked line per message, like the dev
 * mailbox: the only place a phone code is ever logged, and only in dev mode.
 */
export class DevOutboxSender implements SmsSender {
  readonly kind = 'dev-outbox'
  private readonly messages: DevOutboxMessage[] = []

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const code = extractCode(message.body)
    this.messages.push({
      to: message.to,
      channel: message.channel,
      body: message.body,
      code,
      created_at: this.now(),
    })
    if (this.messages.length > DEV_OUTBOX_LIMIT) this.messages.shift()
    this.logger.info(`[dev outbox] ${message.channel} to ${message.to}: ${code ?? '(no code)'}`)
  }

  /** Messages newest first, optionally only those sent to `to` (E.164; non-digits ignored). */
  list(to?: string, limit = 50): DevOutboxMessage[] {
    const digits = to?.replace(/\D+/g, '')
    return this.messages
      .filter((m) => !digits || m.to === `+${digits}`)
      .slice(-limit)
      .reverse()
  }
}
