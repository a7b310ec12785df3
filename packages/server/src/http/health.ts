import { routes } from '@latchkey/protocol'
import { sql } from 'kysely'
import { z } from 'zod'
import { defineRoute } from './route.ts'

/** For load balancers and process supervisors: the process serves and its database answers. */
export const healthRoute = (version: string) =>
  defineRoute({
    method: 'get',
    path: routes.health,
    summary: 'Health check: 200 while the server runs and its database answers',
    tags: ['meta'],
    auth: 'none',
    app: false,
    response: z.object({ status: z.literal('ok'), version: z.string() }),
    handler: async ({ services }) => {
      await sql`select 1`.execute(services.db)
      return { status: 'ok' as const, version }
    },
  })
