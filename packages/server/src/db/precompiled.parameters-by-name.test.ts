import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { precompile } from './precompiled.ts'

// Hot-path statements are compiled once and run with new values
// (db/precompiled.ts): each run must see its own values in the right bind
// slots, on SQLite and PostgreSQL alike, and keep the builder's constants.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const appsNamed = precompile<{ name: string; other: string }>()((db, param) =>
  db
    .selectFrom('apps')
    .select(['id', 'name'])
    // `name` fills two slots; the literal between them stays a constant.
    .where((eb) =>
      eb.or([
        eb('name', '=', param('name')),
        eb('name', '=', 'No Such App'),
        eb('name', '=', param('other')),
        eb('id', '=', param('name')),
      ]),
    )
    .orderBy('name'),
)

const renameApp = precompile<{ id: string; name: string }>()((db, param) =>
  db
    .updateTable('apps')
    .set({ name: param('name') })
    .where('id', '=', param('id')),
)

it('fills every slot of a parameter from the values of each run', async () => {
  const second = await t.createApp()
  expect(await appsNamed.rows(t.db, { name: 'Test App', other: 'nobody' })).toEqual([
    { id: t.app.id, name: 'Test App' },
  ])
  expect(await appsNamed.rows(t.db, { name: 'nobody', other: 'Other App' })).toEqual([
    { id: second.id, name: 'Other App' },
  ])
  expect(await appsNamed.rows(t.db, { name: second.id, other: 'Test App' })).toHaveLength(2)
})

it('runs inside a transaction, and counts the rows a write changed', async () => {
  const app = await t.createApp()
  await t.db.transaction().execute(async (tx) => {
    expect(await renameApp.affected(tx, { id: app.id, name: 'Renamed' })).toBe(1)
    expect(await renameApp.affected(tx, { id: 'no-such-app', name: 'Renamed' })).toBe(0)
  })
  expect(await appsNamed.first(t.db, { name: 'Renamed', other: 'nobody' })).toEqual({
    id: app.id,
    name: 'Renamed',
  })
})
