import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { consoleRequest, signIn } from './console.test-helper.ts'
import { CONSOLE_USERS_PAGE, containsPattern } from './user-search.ts'

// The console's user list (docs/console.md "Users"): every user is reachable
// through "Next page" (a cursor, 50 a page), and a search finds users whose
// id, email, phone or wallet address contains the text — with `%`, `_` and
// `\` taken as plain characters, on SQLite and PostgreSQL alike.
let t: TestInstance
let session: string
const ids: string[] = []
beforeAll(async () => {
  const many = { limit: 10_000, windowMs: 60 * 60_000 }
  t = await getTestInstance({ rateLimits: { codeSendsPerIp: many, codeAttemptsPerIp: many } })
  session = await signIn(t)
  for (let i = 0; i < CONSOLE_USERS_PAGE + 5; i++) {
    ids.push((await t.login(`user${String(i).padStart(2, '0')}@paging.example`)).user.id)
    t.clock.advance(1)
  }
  ids.push((await t.login('per%cent_under@wild.example')).user.id)
  ids.push((await t.login('percent@wild.example')).user.id)
})
afterAll(() => t.close())

const list = (query: string) =>
  consoleRequest(t, `/apps/${t.app.id}/users?${query}`, { session }).then((r) => {
    expect(r.status, r.text).toBe(200)
    return r.body as { users: Array<{ id: string }>; next_cursor: string | null }
  })
const idsOf = (page: { users: Array<{ id: string }> }) => page.users.map((u) => u.id)

it('pages through every user, oldest first, 50 a page', async () => {
  const first = await list('')
  expect(first.users).toHaveLength(CONSOLE_USERS_PAGE)
  expect(first.next_cursor).toEqual(expect.any(String))
  const second = await list(`cursor=${first.next_cursor}`)
  expect(second.next_cursor).toBeNull()
  expect([...idsOf(first), ...idsOf(second)]).toEqual(ids)
})

it('finds users by part of their email or user id, ignoring case', async () => {
  expect(idsOf(await list('q=USER07%40paging'))).toEqual([ids[7]])
  const byId = ids[3]?.slice(-10) ?? ''
  expect(idsOf(await list(`q=${byId}`))).toEqual([ids[3]])
  expect(idsOf(await list('q=paging.example'))).toHaveLength(CONSOLE_USERS_PAGE)
  const searched = await list('q=paging.example')
  const rest = await list(`q=paging.example&cursor=${searched.next_cursor}`)
  expect([...idsOf(searched), ...idsOf(rest)]).toEqual(ids.slice(0, CONSOLE_USERS_PAGE + 5))
  expect((await list('q=nobody-here')).users).toEqual([])
})

it('takes LIKE wildcards in the search as plain characters', async () => {
  expect(containsPattern('a%b_c\\')).toBe('%a\\%b\\_c\\\\%')
  const wild = ids.at(-2)
  expect(idsOf(await list(`q=${encodeURIComponent('%')}`))).toEqual([wild])
  expect(idsOf(await list(`q=${encodeURIComponent('per%cent_')}`))).toEqual([wild])
  // `_` would match any one character, and `%` anything: "percent@" stays unmatched.
  expect(idsOf(await list(`q=${encodeURIComponent('r_e')}`))).toEqual([])
  expect(idsOf(await list(`q=${encodeURIComponent('\\')}`))).toEqual([])
})

it('refuses a cursor it did not make and unknown query fields', async () => {
  const bad = await consoleRequest(t, `/apps/${t.app.id}/users?cursor=nope`, { session })
  expect(bad.status).toBe(400)
  expect(bad.body.code).toBe('INVALID_PAYLOAD')
  const unknown = await consoleRequest(t, `/apps/${t.app.id}/users?limit=1000`, { session })
  expect(unknown.status).toBe(400)
})
