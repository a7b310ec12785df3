import { routes } from '@latchkey/protocol'
import type { Hono } from 'hono'
import { z } from 'zod'
import { listDevMailbox } from '../adapters/email/dev-mailbox.ts'
import type { HonoEnv, Services } from '../http/context.ts'
import { defineRoute } from '../http/route.ts'

export const devMailboxResponseSchema = z.object({
  messages: z.array(
    z.object({
      to: z.string(),
      subject: z.string(),
      text: z.string(),
      code: z.string().nullable(),
      created_at: z.number(),
    }),
  ),
})

/** Dev mailbox as JSON (only served while the dev mailbox delivers email). */
export const devMailboxRoute = defineRoute({
  method: 'get',
  path: routes.devMailbox,
  summary: 'Development only: emails the dev mailbox received, newest first',
  tags: ['dev'],
  auth: 'none',
  app: false,
  query: z.object({ to: z.string().max(254).optional() }),
  response: devMailboxResponseSchema,
  handler: async ({ services, query }) => ({
    messages: await listDevMailbox(services.db, query.to),
  }),
})

const escapeHtml = (s: string) =>
  s.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] as string,
  )

/** GET /dev/mailbox: a small readable page of the same messages. */
export function registerDevMailboxPage(hono: Hono<HonoEnv>, services: Services): void {
  hono.get('/dev/mailbox', async (c) => {
    const to = c.req.query('to')
    // No address holds a NUL, and PostgreSQL refuses one in a query (a 500 before this check).
    const address = to && to.length <= 254 && !to.includes('\u0000') ? to : undefined
    const messages = await listDevMailbox(services.db, address, 100)
    const rows = messages
      .map(
        (m) =>
          `<li><div class="meta">${escapeHtml(new Date(m.created_at).toISOString())} → <b>${escapeHtml(m.to)}</b></div>` +
          `<div class="subject">${escapeHtml(m.subject)}</div>` +
          (m.code ? `<div class="code">${escapeHtml(m.code)}</div>` : '') +
          `<pre>${escapeHtml(m.text)}</pre></li>`,
      )
      .join('')
    return c.html(
      `<!doctype html><html><head><meta charset="utf-8"><title>Latchkey dev mailbox</title><meta http-equiv="refresh" content="5">` +
        `<style>body{font-family:system-ui,sans-serif;max-width:720px;margin:2rem auto;padding:0 1rem}li{list-style:none;border-bottom:1px solid #ddd;padding:.75rem 0}.meta{color:#666;font-size:.85rem}.subject{font-weight:600}.code{font-size:1.6rem;letter-spacing:.2em;font-family:monospace}pre{white-space:pre-wrap;color:#444}</style></head>` +
        `<body><h1>Dev mailbox</h1><p>Development only: emails are stored here instead of being sent. Refreshes every 5 s.</p><ul>${rows || '<li>No messages yet.</li>'}</ul></body></html>`,
    )
  })
}
