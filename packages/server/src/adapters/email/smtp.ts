import nodemailer, { type Transporter } from 'nodemailer'
import type { EmailMessage, EmailSender } from './types.ts'

export interface SmtpSenderOptions {
  /** `smtp://user:pass@host:587` or `smtps://…`; nodemailer URL options apply (e.g. `?ignoreTLS=true`). */
  url: string
  from: string
}

/** Production email delivery through any SMTP server (nodemailer). */
export class SmtpEmailSender implements EmailSender {
  readonly kind = 'smtp'
  readonly #transport: Transporter
  readonly #from: string

  constructor(options: SmtpSenderOptions) {
    this.#transport = nodemailer.createTransport(options.url)
    this.#from = options.from
  }

  async send(message: EmailMessage): Promise<void> {
    await this.#transport.sendMail({
      from: this.#from,
      to: message.to,
      subject: message.subject,
      text: message.text,
      ...(message.html ? { html: message.html } : {}),
    })
  }

  async close(): Promise<void> {
    this.#transport.close()
  }
}
