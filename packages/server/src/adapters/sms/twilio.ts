import {
  SmsDeliveryError,
  type SmsDeliveryFailure,
  type SmsMessage,
  type SmsSender,
} from './types.ts'

/** Twilio Programmable Messaging credentials and senders. */
export interface TwilioOptions {
  /** Account SID, 'AC…' (the Basic-auth user name). */
  accountSid: string
  /** Auth token (the Basic-auth password). Never logged. */
  authToken: string
  /** SMS sender: a Twilio phone number in E.164 (or an alphanumeric sender id). */
  from?: string
  /** A Messaging Service SID, 'MG…'; used when `from` is not set. */
  messagingServiceSid?: string
  /** WhatsApp sender number in E.164 (with or without the `whatsapp:` prefix). */
  whatsappFrom?: string
  /** API base (default https://api.twilio.com); tests point it at a local server. */
  baseUrl?: string
  /** Request timeout (default 10 s). */
  timeoutMs?: number
}

/** Twilio's error body (https://www.twilio.com/docs/usage/twilios-response#response-formats-exceptions). */
interface TwilioErrorBody {
  code?: number
  message?: string
  more_info?: string
  status?: number
}

const WHATSAPP_PREFIX = 'whatsapp:'
const withWhatsAppPrefix = (address: string) =>
  address.startsWith(WHATSAPP_PREFIX) ? address : `${WHATSAPP_PREFIX}${address}`

/** Twilio error codes the login flow tells apart; everything else is a plain failure. */
function failureOf(status: number, code: number | undefined): SmsDeliveryFailure {
  // 21211 invalid 'To' number; 21614 'To' is not a mobile number.
  if (code === 21211 || code === 21614) return 'invalid-number'
  // 21408 permission to send to this region not enabled; 21612 'To' not reachable on this route.
  if (code === 21408 || code === 21612) return 'region'
  if (status === 429 || code === 20429) return 'rate-limited'
  return 'failed'
}

/**
 * Sends messages with Twilio's Messages API:
 * `POST /2010-04-01/Accounts/{AccountSid}/Messages.json`, HTTP Basic
 * `AccountSid:AuthToken`, form fields `To`, `From` or `MessagingServiceSid`,
 * and `Body`. WhatsApp messages carry the `whatsapp:` prefix on `To` and
 * `From`. A 201 answer is success; Twilio's error JSON `{code, message,
 * more_info, status}` becomes an {@link SmsDeliveryError}.
 */
export class TwilioSmsSender implements SmsSender {
  readonly kind = 'twilio'
  private readonly endpoint: string
  private readonly authorization: string

  constructor(private readonly options: TwilioOptions) {
    if (!/^AC[0-9a-zA-Z]{32}$/.test(options.accountSid))
      throw new Error('Twilio account SID must look like AC followed by 32 characters')
    if (!options.authToken) throw new Error('Twilio auth token is required')
    if (!options.from && !options.messagingServiceSid && !options.whatsappFrom)
      throw new Error('Twilio needs a sender: from, messagingServiceSid or whatsappFrom')
    const base = (options.baseUrl ?? 'https://api.twilio.com').replace(/\/+$/, '')
    this.endpoint = `${base}/2010-04-01/Accounts/${encodeURIComponent(options.accountSid)}/Messages.json`
    this.authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`
  }

  /** The form Twilio receives for `message` (exported for the adapter's test and the docs). */
  form(message: SmsMessage): URLSearchParams {
    const { from, messagingServiceSid, whatsappFrom } = this.options
    const form = new URLSearchParams()
    if (message.channel === 'whatsapp') {
      form.set('To', withWhatsAppPrefix(message.to))
      if (whatsappFrom) form.set('From', withWhatsAppPrefix(whatsappFrom))
      else if (messagingServiceSid) form.set('MessagingServiceSid', messagingServiceSid)
      else throw new SmsDeliveryError('No WhatsApp sender configured (whatsappFrom)', 'failed')
    } else {
      form.set('To', message.to)
      if (from) form.set('From', from)
      else if (messagingServiceSid) form.set('MessagingServiceSid', messagingServiceSid)
      else
        throw new SmsDeliveryError(
          'No SMS sender configured (from or messagingServiceSid)',
          'failed',
        )
    }
    form.set('Body', message.body)
    return form
  }

  async send(message: SmsMessage): Promise<void> {
    const body = this.form(message)
    let res: Response
    try {
      res = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          authorization: this.authorization,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body,
        signal: AbortSignal.timeout(this.options.timeoutMs ?? 10_000),
      })
    } catch (error) {
      throw new SmsDeliveryError(`Twilio request failed: ${(error as Error).name}`, 'failed')
    }
    if (res.status === 200 || res.status === 201) {
      await res.body?.cancel()
      return
    }
    let error: TwilioErrorBody = {}
    try {
      error = (await res.json()) as TwilioErrorBody
    } catch {}
    const code = typeof error.code === 'number' ? error.code : undefined
    // Twilio's own message may quote the phone number, so it stays out of the
    // error's (logged) message; the code and more_info link say enough.
    throw new SmsDeliveryError(
      `Twilio answered ${res.status}${code ? ` (error ${code}${error.more_info ? `, ${error.more_info}` : ''})` : ''}`,
      failureOf(res.status, code),
      code,
    )
  }
}
