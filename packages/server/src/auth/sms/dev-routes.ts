import { routes } from '@latchkey/protocol'
import type { Hono } from 'hono'
import { z } from 'zod'
import { DevOutboxSender } from '../../adapters/sms/dev-outbox.ts'
import type { HonoEnv } from '../../http/context.ts'
import { defineRoute } from '../../http/route.ts'

export const devOutboxResponseSchema = z.object({
  messages: z.array(
    z.object({
      to: z.string(),
      channel: z.enum(['sms', 'whatsapp']),
      body: z.string(),
      code: z.string().nullable(),
      created_at: z.number(),
    }),
  ),
})

/** Dev outbox as JSON (only served while the dev outbox delivers SMS/WhatsApp). */
export const devOutboxRoute = defineRoute({
  method: 'get',
  path: routes.devOutbox,
  summary: 'Development only: SMS/WhatsApp messages the dev outbox received, newest first',
  tags: ['dev'],
  auth: 'none',
  app: false,
  query: z.object({ to: z.string().max(32).optional() }),
  response: devOutboxResponseSchema,
  handler: async ({ services, query }) => ({
    messages: services.sms instanceof DevOutboxSender ? services.sms.list(query.to) : [],
  }),
})

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  )

/** GET /dev/outbox: a small readable page of the same messages (beside /dev/mailbox). */
export function registerDevOutboxPage(hono: Hono<HonoEnv>, outbox: DevOutboxSender): void {
  hono.get('/dev/outbox', (c) => {
    const to = c.req.query('to')
    const rows = outbox
      .list(to && to.length <= 32 ? to : undefined, 100)
      .map(
        (m) =>
          `<li><div class="meta">${escapeHtml(new Date(m.created_at).toISOString())} → <b>${escapeHtml(m.to)}</b> (${m.channel})</div>` +
          (m.code ? `<div class="code">${escapeHtml(m.code)}</div>` : '') +
          `<pre>${escapeHtml(m.body)}</pre></li>`,
      )
      .join('')
    return c.html(
      `<!doctype html><html><head><meta charset="utf-8"><title>Latchkey dev outbox</title><meta http-equiv="refresh" content="5">` +
        `<style>body{font-family:system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem}li{list-style:none;border-bottom:1px solid #ddd;padding:.75rem 0}.meta{color:#666;font-size:.85rem}.code{font-size:1.6rem;letter-spacing:.2em;font-family:monospace}pre{white-space:pre-wrap;color:#444}</style></head>` +
        `<body><h1>Dev outbox</h1><p>Development only: SMS and WhatsApp messages are stored here instead of being sent. Refreshes every 5 s. Emails: <a href="/dev/mailbox">dev mailbox</a>.</p><ul>${rows || '<li>No messages yet.</li>'}</ul></body></html>`,
    )
  })
}
