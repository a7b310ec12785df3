import { existsSync } from 'node:fs'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { runCliIn } from './test/cli.ts'
import { makeProject, type TempProject } from './test/temp-project.ts'

// The CLI finds its data from any folder of the project, and never starts an
// empty database in a folder it merely happens to run in.

let project: TempProject
beforeEach(() => {
  project = makeProject({
    'package.json': { name: 'repo', workspaces: ['packages/*', 'apps/*'] },
    'apps/demo/package.json': { name: 'demo' },
    'apps/demo/src/': '',
    'elsewhere/': '',
  })
})
afterEach(() => project.remove())

const rootDatabase = () => project.path('.data/latchkey.sqlite')
const create = ['apps', 'create', '--name', 'Demo', '--origin', 'http://a.test', '--json']

it('refuses to create a database without --init, says where it looked, and creates nothing', async () => {
  const res = await runCliIn(project.path('apps/demo'), ['apps', 'list'])
  expect(res.code).toBe(1)
  expect(res.out).toBe('')
  expect(res.err).toContain(`No Latchkey database at ${rootDatabase()}`)
  expect(res.err).toContain(`.data in the project root ${project.root}`)
  for (const hint of ['--init', '--data', 'LATCHKEY_DATA_DIR']) expect(res.err).toContain(hint)
  expect(existsSync(project.path('.data'))).toBe(false)
  expect(existsSync(project.path('apps/demo/.data'))).toBe(false)
})

it('--init creates the database in the project root, from a sub-folder', async () => {
  const res = await runCliIn(project.path('apps/demo/src'), [...create, '--init'])
  expect(res.code).toBe(0)
  expect(res.err).toBe(`Using SQLite database ${rootDatabase()} (new: created by --init)`)
  // stdout stays machine-readable: the database line goes to stderr.
  expect(JSON.parse(res.out)).toMatchObject({ name: 'Demo' })
  expect(existsSync(rootDatabase())).toBe(true)
  expect(existsSync(project.path('apps/demo/.data'))).toBe(false)
  expect(existsSync(project.path('apps/demo/src/.data'))).toBe(false)
})

it('every folder of the project uses the root database and prints it', async () => {
  const { out } = await runCliIn(project.root, [...create, '--init'])
  const { id } = JSON.parse(out)
  for (const folder of ['', 'apps/demo', 'apps/demo/src']) {
    const res = await runCliIn(project.path(folder), ['apps', 'list', '--json'])
    expect(res).toMatchObject({ code: 0, err: `Using SQLite database ${rootDatabase()}` })
    expect(JSON.parse(res.out)).toEqual([{ id, name: 'Demo', origins: ['http://a.test'] }])
  }
  // --init on an existing database just uses it.
  const again = await runCliIn(project.path('apps/demo'), ['apps', 'list', '--json', '--init'])
  expect(again.err).toBe(`Using SQLite database ${rootDatabase()}`)
  expect(JSON.parse(again.out)).toHaveLength(1)
})

it('--data (relative to the current folder) overrides the default', async () => {
  const cwd = project.path('apps/demo')
  const refused = await runCliIn(cwd, ['apps', 'list', '--data', '../../elsewhere'])
  expect(refused.code).toBe(1)
  expect(refused.err).toContain(
    `No Latchkey database at ${project.path('elsewhere/latchkey.sqlite')}`,
  )
  expect(refused.err).toContain('given by --data')
  const created = await runCliIn(cwd, [...create, '--data', '../../elsewhere', '--init'])
  expect(created.code).toBe(0)
  expect(existsSync(project.path('elsewhere/latchkey.sqlite'))).toBe(true)
  expect(existsSync(project.path('.data'))).toBe(false)
  const listed = await runCliIn(project.root, ['apps', 'list', '--data', 'elsewhere', '--json'])
  expect(listed.err).toBe(`Using SQLite database ${project.path('elsewhere/latchkey.sqlite')}`)
  expect(JSON.parse(listed.out)).toHaveLength(1)
})

it('LATCHKEY_DATA_DIR overrides the default, and --data overrides LATCHKEY_DATA_DIR', async () => {
  const env = { LATCHKEY_DATA_DIR: project.path('elsewhere') }
  const refused = await runCliIn(project.root, ['migrate'], env)
  expect(refused.code).toBe(1)
  expect(refused.err).toContain('given by LATCHKEY_DATA_DIR')
  expect(existsSync(project.path('elsewhere/latchkey.sqlite'))).toBe(false)
  const init = await runCliIn(project.path('apps/demo'), ['migrate', '--init'], env)
  expect(init.code).toBe(0)
  expect(init.out).toMatch(/^Applied: /)
  expect(existsSync(project.path('elsewhere/latchkey.sqlite'))).toBe(true)
  const flag = await runCliIn(project.root, ['apps', 'list', '--data', 'other'], env)
  expect(flag.err).toContain(`No Latchkey database at ${project.path('other/latchkey.sqlite')}`)
})

it('serve follows the same rule: no database, no --init, no server', async () => {
  const res = await runCliIn(project.path('apps/demo'), ['serve'], { PORT: '0' })
  expect(res.code).toBe(1)
  expect(res.err).toContain(`No Latchkey database at ${rootDatabase()}`)
  expect(existsSync(project.path('.data'))).toBe(false)
})

it('without a package.json anywhere up, the default is .data in the current folder', async () => {
  const bare = makeProject({ 'x/': '' })
  try {
    const res = await runCliIn(bare.path('x'), ['apps', 'list'])
    expect(res.err).toContain(`No Latchkey database at ${bare.path('x/.data/latchkey.sqlite')}`)
    expect(res.err).toContain('no package.json')
  } finally {
    bare.remove()
  }
})

it('--data must name a folder, not the database file', async () => {
  await runCliIn(project.root, ['migrate', '--init'])
  const res = await runCliIn(project.root, ['apps', 'list', '--data', '.data/latchkey.sqlite'])
  expect(res.code).toBe(1)
  expect(res.err).toContain('is a file')
  expect((await runCliIn(project.root, ['apps', 'list', '--data', ''])).code).toBe(1)
})

it('DATABASE_URL=postgres://… is used instead and printed without its password', async () => {
  // Port 1 refuses at once: the line is printed before the connection fails.
  const res = await runCliIn(project.path('apps/demo'), ['apps', 'list'], {
    DATABASE_URL: 'postgres://latchkey:hunter2@127.0.0.1:1/latchkey?password=hunter2',
  })
  expect(res.code).toBe(1)
  expect(res.err.split('\n')[0]).toBe(
    'Using PostgreSQL database postgres://latchkey@127.0.0.1:1/latchkey',
  )
  expect(`${res.out}${res.err}`).not.toContain('hunter2')
  expect(existsSync(project.path('.data'))).toBe(false)
})

it('a DATABASE_URL that is not postgres:// is ignored out loud', async () => {
  const res = await runCliIn(project.root, ['migrate', '--init'], { DATABASE_URL: 'sqlite:x.db' })
  expect(res.code).toBe(0)
  expect(res.err).toContain('DATABASE_URL is not a postgres:// URL')
  expect(res.err).toContain(`Using SQLite database ${rootDatabase()}`)
})
