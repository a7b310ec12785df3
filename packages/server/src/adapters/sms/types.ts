/** How a code reaches a phone. */
export type SmsChannel = 'sms' | 'whatsapp'

export interface SmsMessage {
  /** E.164 recipient, e.g. '+14155550132' (no channel prefix: the sender adds it). */
  to: string
  channel: SmsChannel
  body: string
  appId?: string
}

/** Delivers text messages. Implementations must never log the body (it holds a code). */
export interface SmsSender {
  /** 'twilio', 'dev-outbox', 'unconfigured', or a test's own. */
  readonly kind: string
  send(message: SmsMessage): Promise<void>
  close?(): Promise<void>
}

/** Why a provider refused a message, as far as the login flow cares. */
export type SmsDeliveryFailure = 'invalid-number' | 'region' | 'rate-limited' | 'failed'

/** A refused or failed delivery. `message` is safe to log (no code, no credentials). */
export class SmsDeliveryError extends Error {
  override readonly name = 'SmsDeliveryError'
  constructor(
    message: string,
    readonly reason: SmsDeliveryFailure,
    /** The provider's own error code, when it gave one (Twilio: e.g. 21211). */
    readonly providerCode?: number,
  ) {
    super(message)
  }
}

/**
 * The sender when nothing can deliver: production without Twilio (the dev
 * outbox would publish codes). Every send fails; the server says why at start.
 */
export class UnconfiguredSmsSender implements SmsSender {
  readonly kind = 'unconfigured'
  async send(): Promise<void> {
    throw new SmsDeliveryError('SMS delivery is not configured (set LATCHKEY_TWILIO_*)', 'failed')
  }
}
