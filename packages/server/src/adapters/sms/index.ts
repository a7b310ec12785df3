import type { Logger } from '../../config.ts'
import { DevOutboxSender } from './dev-outbox.ts'
import { type TwilioOptions, TwilioSmsSender } from './twilio.ts'
import { type SmsSender, UnconfiguredSmsSender } from './types.ts'

export { DevOutboxSender } from './dev-outbox.ts'
export { type TwilioOptions, TwilioSmsSender } from './twilio.ts'
export * from './types.ts'

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Picks the SMS/WhatsApp sender: an injected one (tests), Twilio when
 * configured, else the dev outbox when the dev mailbox is on, else a sender
 * that refuses (production without Twilio never publishes codes).
 */
export function createSmsSender(input: {
  injected?: SmsSender
  twilio?: TwilioOptions
  devMailbox: boolean
  production?: boolean
  logger: Logger
  now: () => number
}): SmsSender {
  if (input.injected) return input.injected
  if (input.twilio) {
    if (input.twilio.baseUrl && input.production) {
      const url = new URL(input.twilio.baseUrl)
      if (url.protocol !== 'https:' && !LOOPBACK_HOSTS.has(url.hostname))
        throw new Error('twilio.baseUrl must be https in production')
    }
    return new TwilioSmsSender(input.twilio)
  }
  if (input.devMailbox) return new DevOutboxSender(input.logger, input.now)
  input.logger.info('SMS/WhatsApp login cannot deliver codes: set LATCHKEY_TWILIO_* to enable it')
  return new UnconfiguredSmsSender()
}
