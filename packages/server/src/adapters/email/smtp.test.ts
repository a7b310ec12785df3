import { routes } from '@latchkey/protocol'
import { SMTPServer } from 'smtp-server'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance } from '../../test/instance.ts'
import { SmtpEmailSender } from './smtp.ts'

// The real nodemailer transport against a real local SMTP server.
let server: SMTPServer
let port = 0
const received: Array<{ from: string; to: string[]; raw: string }> = []

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    secure: false,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on('data', (c: Buffer) => chunks.push(c))
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  port = (server.server.address() as { port: number }).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

it('delivers a message through SMTP', async () => {
  const sender = new SmtpEmailSender({
    url: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    from: 'Latchkey <login@latchkey.test>',
  })
  await sender.send({
    to: 'bob@example.com',
    subject: 'Hello',
    text: 'Body 123456',
    html: '<p>Body</p>',
  })
  await sender.close()
  const message = received.at(-1)
  expect(message?.to).toEqual(['bob@example.com'])
  expect(message?.from).toBe('login@latchkey.test')
  expect(message?.raw).toContain('Subject: Hello')
  expect(message?.raw).toContain('Body 123456')
})

it('the login flow sends the code by SMTP when smtpUrl is set (no dev mailbox)', async () => {
  const t = await getTestInstance({
    smtpUrl: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
    mailFrom: 'login@latchkey.test',
  })
  try {
    expect(t.server.services.config.devMailbox).toBe(false)
    const res = await t.request(routes.emailInit, { body: { email: 'carol@example.com' } })
    expect(res.status).toBe(200)
    const message = received.find((m) => m.to.includes('carol@example.com'))
    const code = message?.raw.match(/login code is (\d{6})/)?.[1]
    expect(code).toMatch(/^\d{6}$/)
    expect(await t.countRows('dev_mailbox')).toBe(0)
    expect((await t.request(routes.devMailbox, { appId: null })).status).toBe(404)
    const auth = await t.request(routes.emailAuthenticate, {
      body: { email: 'carol@example.com', code },
    })
    expect(auth.status).toBe(200)
  } finally {
    await t.close()
  }
})
