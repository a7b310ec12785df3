import { routes } from '@latchkey/protocol'
import { sql } from 'kysely'
import { z } from 'zod'
import { ApiError } from '../errors.ts'
import { defineRoute } from './route.ts'

/** How long `GET /ready` waits for the database or Redis before calling it down. */
export const READY_CHECK_TIMEOUT_MS = 2_000

/** Set by the server: `draining` once a shutdown began (start.ts `close()`). */
export interface Readiness {
  draining: boolean
}

/** Resolves when `check` does; rejects when it fails or takes longer than `ms`. */
async function within(check: () => Promise<unknown>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms)
    timer.unref?.()
  })
  try {
    await Promise.race([check(), late])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * For load balancers (readiness, docs/operations.md): 200 while this node
 * should get traffic — the database answers and, with `REDIS_URL`, Redis
 * answers PING — else 503 `NOT_READY` naming what is down, and 503 from the
 * moment a shutdown starts draining. `/health` is liveness: it stays 200
 * while the process runs.
 */
export const readyRoute = (readiness: Readiness) =>
  defineRoute({
    method: 'get',
    path: routes.ready,
    summary: 'Readiness: 200 while the database (and Redis, when configured) answer; 503 draining',
    tags: ['meta'],
    auth: 'none',
    app: false,
    response: z.object({ status: z.literal('ready') }),
    handler: async ({ services }) => {
      if (readiness.draining) throw new ApiError('NOT_READY', 'Not ready: shutting down')
      const down: string[] = []
      await within(() => sql`select 1`.execute(services.db), READY_CHECK_TIMEOUT_MS).catch(() =>
        down.push('database'),
      )
      const { limiter } = services
      if (limiter.ping)
        await within(() => limiter.ping?.() ?? Promise.resolve(), READY_CHECK_TIMEOUT_MS).catch(
          () => down.push('redis'),
        )
      if (down.length > 0)
        throw new ApiError('NOT_READY', `Not ready: ${down.join(' and ')} not answering`)
      return { status: 'ready' as const }
    },
  })
