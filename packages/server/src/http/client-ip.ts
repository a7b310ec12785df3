import type { Context } from 'hono'
import type { HonoEnv, Services } from './context.ts'

/**
 * The caller's IP: the socket address, or — only when `trustProxy` is set —
 * the last X-Forwarded-For entry (the one our own proxy appended; earlier
 * entries are client-controlled).
 */
export function clientIp(c: Context<HonoEnv>, services: Services): string | undefined {
  if (services.config.trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')
    const last = forwarded?.split(',').at(-1)?.trim()
    if (last) return last
  }
  return c.env?.incoming?.socket?.remoteAddress
}
