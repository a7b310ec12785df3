import { MFA_VERIFICATION_TTL_MS, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from './cli.ts'
import { getTestInstance, type TestInstance } from './test/instance.ts'
import { type MfaDevice, userWithTotp, verifyTotp } from './test/mfa.ts'
import { hdBody } from './test/wallets.ts'

// `latchkey users mfa-reset USER_ID`: the operator's way back in for a user
// who lost their only factor (docs/mfa.md "Losing a factor"). Without --yes it
// changes nothing and says what would go; with it every MFA factor of the user
// goes and every session of theirs ends, so only a fresh login uses the
// account, now without MFA.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { mfa_methods: ['totp'] } })
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

const methodsOf = async (userId: string) =>
  (
    await t.db.selectFrom('mfa_factors').select('method').where('user_id', '=', userId).execute()
  ).map((r) => r.method)

async function lockedOut(
  email: string,
): Promise<{ device: MfaDevice; wallet: ReturnType<typeof hdBody> }> {
  const { device } = await userWithTotp(t, email)
  const wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: device.token,
    body: wallet,
    enclaveKey: device.key,
  })
  expect(created.status).toBe(200)
  t.clock.advance(MFA_VERIFICATION_TTL_MS)
  return { device, wallet }
}

it('without --yes: prints what would go, changes nothing, exits 1 with the warning', async () => {
  const { device } = await lockedOut('asked@example.com')
  const res = await run(['users', 'mfa-reset', device.userId])
  expect(res.code).toBe(1)
  expect(res.out).toBe(
    `Would reset MFA of user ${device.userId} of app ${t.app.id}: MFA methods totp; 1 live session ended.`,
  )
  expect(res.err).toContain('--yes')
  expect(res.err).toContain('Check who is asking first')
  expect(await methodsOf(device.userId)).toEqual(['totp'])
  expect((await t.request(routes.usersMe, { token: device.token })).status).toBe(200)
})

it('with --yes: the factors go, the sessions end, and a fresh login reaches the wallet without MFA', async () => {
  const email = 'lost-phone@example.com'
  const { device, wallet } = await lockedOut(email)
  const res = await run(['users', 'mfa-reset', device.userId, '--yes'])
  expect(res).toMatchObject({ code: 0, err: '' })
  expect(res.out).toBe(
    `Reset MFA of user ${device.userId} of app ${t.app.id}: MFA methods totp; 1 live session ended.`,
  )
  expect(await methodsOf(device.userId)).toEqual([])
  for (const table of ['mfa_verifications', 'mfa_attempts'] as const)
    expect(
      await t.db.selectFrom(table).select('user_id').where('user_id', '=', device.userId).execute(),
    ).toEqual([])
  // The old session is over.
  expect(await t.request(routes.usersMe, { token: device.token })).toMatchObject({
    status: 401,
    body: { code: 'UNAUTHORIZED' },
  })
  // A fresh login gets the share without MFA, and can enroll again.
  const again = await t.login(email, { enclaveKey: t.enclaveKey })
  expect(again.user.mfa_methods).toEqual([])
  const share = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token: again.token ?? '',
    body: { entropy_id: wallet.entropy_id },
  })
  expect(share).toMatchObject({ status: 200, body: { auth_share: wallet.auth_share } })
})

it('a locked-out user is unlocked too (the attempt window goes)', async () => {
  const { device, secret } = await userWithTotp(t, 'hammered@example.com')
  await t.db
    .insertInto('mfa_attempts')
    .values({ user_id: device.userId, attempts: 5, expires_at: t.clock.now() + 60_000 })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ attempts: 5 }))
    .execute()
  expect((await verifyTotp(t, device, secret)).status).toBe(429)
  expect((await run(['users', 'mfa-reset', device.userId, '--yes'])).code).toBe(0)
  expect(
    await t.db
      .selectFrom('mfa_attempts')
      .select('user_id')
      .where('user_id', '=', device.userId)
      .execute(),
  ).toEqual([])
})

it('an unknown user is a clear error, exit 1; --help states the trade-off', async () => {
  for (const argv of [
    ['users', 'mfa-reset', 'did:latchkey:nobody'],
    ['users', 'mfa-reset', 'did:latchkey:nobody', '--yes'],
  ])
    expect(await run(argv)).toMatchObject({ code: 1, out: '', err: 'No user did:latchkey:nobody' })
  const help = await run(['users', 'mfa-reset', '--help'])
  expect(help.code).toBe(0)
  expect(help.out).toContain('Usage: latchkey users mfa-reset USER_ID [--yes]')
  expect(help.out).toContain('check')
  expect(help.out).toContain('who asks')
})
