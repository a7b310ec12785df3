import { existsSync, readdirSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { COMMANDS } from './cli/commands.ts'
import { runCliIn } from './test/cli.ts'
import { makeProject } from './test/temp-project.ts'

// Help never opens a database: run from a project that has none, and with a
// DATABASE_URL nothing listens on, it must neither create nor reach one.
const project = makeProject({ 'package.json': { workspaces: ['apps/*'] }, 'apps/demo/': '' })
afterAll(() => project.remove())
const env = { DATABASE_URL: 'postgres://u:p@127.0.0.1:1/none' }
const cwd = project.path('apps/demo')

const groups = [[], ['apps'], ['apps', 'credentials'], ['keys'], ['users']]
const everyPath = [...groups, ...COMMANDS.map((c) => [...c.path])]

describe.each(everyPath)('latchkey %s', (...path: string[]) => {
  it.each(['--help', '-h'])('%s prints usage, flags and environment, exit 0', async (flag) => {
    const res = await runCliIn(cwd, [...path, flag], env)
    expect(res.code).toBe(0)
    expect(res.err).toBe('')
    expect(res.out).toContain(`Usage: latchkey ${path.join(' ')}`.trimEnd())
    for (const text of ['--data DIR', '--init', '-h, --help', 'LATCHKEY_DATA_DIR', 'DATABASE_URL'])
      expect(res.out).toContain(text)
    expect(readdirSync(project.root).sort()).toEqual(['apps', 'package.json'])
    expect(existsSync(project.path('apps/demo/.data'))).toBe(false)
  })
})

it('each command lists its own flags', async () => {
  const create = await runCliIn(cwd, ['apps', 'create', '--help'], env)
  for (const flag of ['--name N', '--origin URL', '--login-method M', '--json'])
    expect(create.out).toContain(flag)
  const set = await runCliIn(cwd, ['apps', 'credentials', 'set', '--help'], env)
  expect(set.out).toContain('--client-secret-env VAR')
  expect(set.out).toContain('LATCHKEY_MASTER_KEY')
  const serve = await runCliIn(cwd, ['serve', '--help'], env)
  expect(serve.out).toContain('PORT')
})

it('`latchkey help <command>` is `<command> --help`', async () => {
  const help = await runCliIn(cwd, ['help', 'apps', 'list'], env)
  expect(help.code).toBe(0)
  expect(help.out).toBe((await runCliIn(cwd, ['apps', 'list', '--help'], env)).out)
})

it('no command prints the usage on stderr and fails', async () => {
  const res = await runCliIn(cwd, [], env)
  expect(res.code).toBe(1)
  expect(res.err).toContain('Usage: latchkey <command>')
})

it('an unknown command or subcommand fails with usage, before any database', async () => {
  for (const argv of [['frobnicate'], ['apps', 'frobnicate'], ['keys', 'show'], ['apps']]) {
    const res = await runCliIn(cwd, argv, env)
    expect(res.code).toBe(1)
    expect(res.err).toContain('Usage: latchkey')
    expect(res.err).not.toContain('Using ')
  }
  expect((await runCliIn(cwd, ['apps', 'frobnicate'], env)).err).toContain(
    'Unknown command: latchkey apps frobnicate',
  )
})

it("an unknown flag, or a flag of another command, fails and points to the command's help", async () => {
  for (const argv of [
    ['apps', 'list', '--origin', 'http://a.test'],
    ['serve', '--verbose'],
    ['apps', 'create', '--name', 'X', '--origin', 'http://a.test', '--client-secret', 'x'],
  ]) {
    const res = await runCliIn(cwd, argv, env)
    expect(res.code).toBe(1)
    expect(res.err).toMatch(/Unknown option '--(origin|verbose|client-secret)'/)
    expect(res.err).toContain('--help" for its options')
    expect(res.err).not.toContain('Using ')
  }
  const positional = await runCliIn(cwd, ['apps', 'list', 'extra'], env)
  expect(positional.code).toBe(1)
  expect(positional.err).toContain('Unexpected argument')
})
