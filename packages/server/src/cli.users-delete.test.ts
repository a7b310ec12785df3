import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from './cli.ts'
import { getTestInstance, type TestInstance } from './test/instance.ts'
import { hdBody } from './test/wallets.ts'

// `latchkey users delete USER_ID`: the operator's way to delete a user (tracker
// issue 15, item 9). Without --yes it deletes nothing and says what would go;
// with it the user goes as with the user's own deletion, sessions included.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const run = async (argv: string[]) => {
  const out: string[] = []
  const err: string[] = []
  const code = await runCli(argv, {
    db: t.db,
    env: {},
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  })
  return { code, out: out.join('\n'), err: err.join('\n') }
}

/** A user with an embedded wallet (Ethereum + Solana) and two live sessions. */
async function userWithWallet(email: string) {
  const first = await t.login(email, { enclaveKey: t.enclaveKey })
  const second = await t.login(email, { enclaveKey: t.enclaveKey })
  const token = first.token ?? ''
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token,
    body: hdBody({ solana: true }),
  })
  expect(created.status).toBe(200)
  return { userId: first.user.id, tokens: [token, second.token ?? ''] }
}

const userExists = async (id: string) =>
  (await t.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !==
  undefined

it('without --yes: prints what would be deleted, deletes nothing, exits 1 asking for --yes', async () => {
  const { userId, tokens } = await userWithWallet('asked@example.com')
  const res = await run(['users', 'delete', userId])
  expect(res.code).toBe(1)
  expect(res.out).toBe(
    `Would delete user ${userId} of app ${t.app.id}: 1 linked account, 2 embedded wallets ` +
      '(with their server-held shares and recovery material), 2 live sessions.',
  )
  expect(res.err).toContain('--yes')
  expect(await userExists(userId)).toBe(true)
  for (const token of tokens) expect((await t.request(routes.usersMe, { token })).status).toBe(200)
})

it('with --yes: deletes the user, its wallet secrets and sessions, and prints what went', async () => {
  const { userId, tokens } = await userWithWallet('operator-deleted@example.com')
  const secrets = await t.countRows('wallet_secrets')
  const res = await run(['users', 'delete', userId, '--yes'])
  expect(res).toMatchObject({ code: 0, err: '' })
  expect(res.out).toBe(
    `Deleted user ${userId} of app ${t.app.id}: 1 linked account, 2 embedded wallets ` +
      '(with their server-held shares and recovery material), 2 live sessions.',
  )
  expect(await userExists(userId)).toBe(false)
  expect(await t.countRows('wallet_secrets')).toBe(secrets - 1)
  expect(
    await t.db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute(),
  ).toEqual([])
  for (const token of tokens)
    expect(await t.request(routes.usersMe, { token })).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    })
})

it('an unknown user is a clear error, exit 1, with or without --yes', async () => {
  for (const argv of [
    ['users', 'delete', 'did:latchkey:nobody'],
    ['users', 'delete', 'did:latchkey:nobody', '--yes'],
  ]) {
    const res = await run(argv)
    expect(res).toMatchObject({ code: 1, out: '', err: 'No user did:latchkey:nobody' })
  }
})

it('needs exactly one USER_ID, and --help explains --yes', async () => {
  const missing = await run(['users', 'delete', '--yes'])
  expect(missing.code).toBe(1)
  expect(missing.err).toContain('Usage: latchkey users delete USER_ID [--yes]')
  const help = await run(['users', 'delete', '--help'])
  expect(help.code).toBe(0)
  expect(help.out).toContain('Usage: latchkey users delete USER_ID [--yes]')
  expect(help.out).toContain('--yes')
  expect(help.out).toContain('cannot be undone')
})
