import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import { consoleRequest, signIn } from './console.test-helper.ts'

// The console's events view (docs/console.md "Events"): an app's sign-ups,
// logins and key releases, newest first across the three, one page at a time
// with a cursor that neither skips nor repeats an event; another app's
// events never show.
let t: TestInstance
let session: string
beforeAll(async () => {
  t = await getTestInstance()
  session = await signIn(t)
})
afterAll(() => t.close())

interface Page {
  data: Array<{ id: string; type: string; user_id: string; created_at: number; detail: object }>
  next_cursor: string | null
}
const events = async (query = '', appId = t.app.id): Promise<Page> => {
  const res = await consoleRequest(t, `/apps/${appId}/events${query}`, { session })
  expect(res.status, res.text).toBe(200)
  return res.body
}

it('lists sign-ups, logins and key releases, newest first', async () => {
  const ada = await t.login('ada@events.example', { enclaveKey: t.enclaveKey })
  t.clock.advance(1000)
  const body = hdBody()
  const token = ada.token ?? ''
  expect((await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body })).status).toBe(200)
  t.clock.advance(1000)
  const released = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token,
    body: { entropy_id: body.entropy_id },
  })
  expect(released.status).toBe(200)
  t.clock.advance(1000)
  await t.login('ada@events.example')
  const other = await t.createApp()
  await t.login('elsewhere@events.example', { appId: other.id })

  const page = await events()
  const types = page.data.map((e) => e.type)
  expect(types.slice(0, 2)).toEqual(['session.created', 'wallet.key_released'])
  // The sign-up and its first session share a millisecond: their ids order them.
  expect(types.slice(2).sort()).toEqual(['session.created', 'user.created'])
  expect(new Set(page.data.map((e) => e.user_id))).toEqual(new Set([ada.user.id]))
  expect(page.data[1]?.detail).toEqual({ kind: 'auth_share', entropy_id: body.entropy_id })
  expect(page.data.find((e) => e.type === 'user.created')?.detail).toEqual({ is_guest: false })
  expect(page.data.map((e) => e.created_at)).toEqual(
    [...page.data.map((e) => e.created_at)].sort((a, b) => b - a),
  )
  expect(page.next_cursor).toBeNull()
  expect((await events('?type=wallet.key_released')).data).toHaveLength(1)
  const elsewhere = (await events('', other.id)).data.map((e) => e.type)
  expect(elsewhere.sort()).toEqual(['session.created', 'user.created'])
})

it('pages with a cursor without skipping or repeating, even at equal times', async () => {
  // Sign-ups and logins in the same millisecond: the (created_at, id) order decides.
  for (let i = 0; i < 30; i++) await t.login(`same-ms-${i}@events.example`)
  const seen: string[] = []
  let cursor: string | null = ''
  let pages = 0
  while (cursor !== null) {
    const page: Page = await events(cursor ? `?cursor=${cursor}` : '')
    seen.push(...page.data.map((e) => `${e.type}:${e.id}`))
    cursor = page.next_cursor
    pages++
  }
  expect(pages).toBe(2)
  expect(seen).toHaveLength(4 + 60)
  expect(new Set(seen).size).toBe(seen.length)
})

it('refuses an unknown type and a cursor it did not make', async () => {
  for (const query of ['?type=user.deleted', '?cursor=bm9wZQ', '?limit=5']) {
    const res = await consoleRequest(t, `/apps/${t.app.id}/events${query}`, { session })
    expect(res.status, query).toBe(400)
    expect(res.body.code).toBe('INVALID_PAYLOAD')
  }
  expect((await consoleRequest(t, '/apps/nope/events', { session })).body.code).toBe(
    'APP_NOT_FOUND',
  )
})
