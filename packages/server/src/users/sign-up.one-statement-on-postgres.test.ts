import type { KyselyPlugin } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { updateAppSettings } from '../apps/service.ts'
import { isPostgresUrl } from '../db/connect.ts'
import { sha256 } from '../ids.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { setTestWebhook } from '../webhooks/testing.ts'
import { createUser, type WrittenWithUser } from './service.ts'

// On PostgreSQL a sign-up for an app without a sign-up gate is one statement
// (users/sign-up-pg.ts): the user, its account, its first session and refresh
// token, and the user.created outbox row. An app with a gate takes the
// transaction that checks it; a taken identifier writes nothing.
const onPostgres = isPostgresUrl(process.env.DATABASE_URL ?? '')

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t?.close())

/** The statements run through `t.db` while `run` runs (transaction control not counted). */
async function statementsOf(run: (db: TestInstance['db']) => Promise<unknown>): Promise<number> {
  let count = 0
  const counter: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      count += 1
      return args.result
    },
  }
  await run(t.db.withPlugin(counter))
  return count
}

const session = (): WrittenWithUser => {
  const id = `s_${Math.random().toString(36).slice(2)}`
  const row = { id, refreshTokenHash: sha256(`rt-${id}`), expiresAt: t.clock.now() + 60_000 }
  return {
    row,
    write: () => Promise.reject(new Error('the one statement writes the session')),
    writeSync: () => {
      throw new Error('not on SQLite')
    },
  }
}

const email = (identifier: string) => ({ type: 'email', identifier, data: { address: identifier } })

it.skipIf(!onPostgres)(
  'a gate-free sign-up is one statement with its session, refresh token and webhook row',
  async () => {
    await setTestWebhook(t.server.services, t.app.id, 'http://127.0.0.1:9/hook', ['user.created'])
    const within = session()
    let made: Awaited<ReturnType<typeof createUser>> | undefined
    const statements = await statementsOf(async (db) => {
      made = await createUser(db, t.app.id, email('one@example.com'), t.clock.now(), within)
    })
    expect(statements).toBe(1)
    const userId = made?.userId ?? ''
    const account = await t.db
      .selectFrom('linked_accounts')
      .select(['type', 'identifier'])
      .where('user_id', '=', userId)
      .execute()
    expect(account).toEqual([{ type: 'email', identifier: 'one@example.com' }])
    const stored = await t.db
      .selectFrom('sessions')
      .innerJoin('refresh_tokens', 'refresh_tokens.session_id', 'sessions.id')
      .select(['sessions.user_id', 'refresh_tokens.token_hash'])
      .where('sessions.id', '=', within.row.id)
      .execute()
    expect(stored).toEqual([{ user_id: userId, token_hash: within.row.refreshTokenHash }])
    const outbox = await t.db
      .selectFrom('webhook_outbox')
      .select(['event_type', 'payload', 'status'])
      .where('app_id', '=', t.app.id)
      .execute()
    expect(outbox).toHaveLength(1)
    expect(outbox[0]?.event_type).toBe('user.created')
    expect(JSON.parse(outbox[0]?.payload ?? '{}').data.user).toEqual(made?.user)
  },
)

it.skipIf(!onPostgres)(
  'an app whose webhook is off or unsubscribed gets no outbox row',
  async () => {
    const app = await t.createApp()
    await setTestWebhook(t.server.services, app.id, 'http://127.0.0.1:9/hook', [
      'user.linked_account',
    ])
    await createUser(t.db, app.id, email('unsubscribed@example.com'), t.clock.now(), session())
    const rows = await t.db.selectFrom('webhook_outbox').select('id').where('app_id', '=', app.id)
    expect(await rows.execute()).toEqual([])
  },
)

it.skipIf(!onPostgres)(
  'an allowlist switched on is seen by the next sign-up (the transaction refuses it)',
  async () => {
    const app = await t.createApp()
    await createUser(t.db, app.id, email('before@example.com'), t.clock.now(), session())
    await updateAppSettings(t.db, app.id, {
      allowlist: { enabled: true, entries: [{ type: 'email', value: 'only@example.com' }] },
    })
    const users = () => t.db.selectFrom('users').select('id').where('app_id', '=', app.id).execute()
    const before = (await users()).length
    await expect(
      createUser(t.db, app.id, email('after@example.com'), t.clock.now(), session()),
    ).rejects.toMatchObject({ code: 'ALLOWLIST_REJECTED' })
    expect((await users()).length).toBe(before)
    // The allowlisted address still signs up, through the transaction (more than one statement).
    const statements = await statementsOf((db) =>
      createUser(db, app.id, email('only@example.com'), t.clock.now(), {
        ...session(),
        write: () => Promise.resolve(),
      }),
    )
    expect(statements).toBeGreaterThan(1)
  },
)

it.skipIf(!onPostgres)('a taken identifier writes no user, session or token', async () => {
  const app = await t.createApp()
  await createUser(t.db, app.id, email('taken@example.com'), t.clock.now(), session())
  const counts = () =>
    Promise.all([t.countRows('users'), t.countRows('sessions'), t.countRows('refresh_tokens')])
  const before = await counts()
  const second = session()
  await expect(
    createUser(t.db, app.id, email('taken@example.com'), t.clock.now(), second),
  ).rejects.toThrow(/unique|duplicate/i)
  expect(await counts()).toEqual(before)
})
