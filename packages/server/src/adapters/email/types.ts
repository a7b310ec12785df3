export interface EmailMessage {
  to: string
  subject: string
  text: string
  html?: string
  /** App the message is sent for (the dev mailbox records it). */
  appId?: string
}

/** Delivers one email. Implementations: SMTP (production) and the dev mailbox. */
export interface EmailSender {
  readonly kind: 'smtp' | 'dev-mailbox' | (string & {})
  send(message: EmailMessage): Promise<void>
  close?(): Promise<void>
}
