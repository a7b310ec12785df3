import { routes } from '@latchkey/protocol'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../cli.ts'
import { purgeExpired } from '../maintenance/purge.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { ethAddress, hdBody } from '../test/wallets.ts'
import { KEY_RELEASE_RETENTION_MS, KEY_RELEASE_USER_AGENT_MAX } from './key-releases.ts'

// Tracker issue 15 (8): every release of key material is recorded before it
// is returned — to whom (user, session), which secret, when, from where — and
// the user (and the operator) can list it.
let t: TestInstance
let owner: { token: string; userId: string; sessionId: string }
let body: ReturnType<typeof hdBody>

const sidOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).sid

async function login(email: string) {
  const auth = await t.login(email, { enclaveKey: t.enclaveKey })
  const token = auth.token ?? ''
  return { token, userId: auth.user.id, sessionId: sidOf(token) }
}

const release = (
  path: string,
  token: string,
  options: { ip?: string; ua?: string; entropyId?: string } = {},
) =>
  t.enclaveRequest(path, {
    token,
    body: { entropy_id: options.entropyId ?? body.entropy_id },
    headers: {
      'x-forwarded-for': `198.51.100.1, ${options.ip ?? '203.0.113.7'}`,
      'user-agent': options.ua ?? 'TestBrowser/1.0',
    },
  })

const rows = (userId: string) =>
  t.db
    .selectFrom('key_releases')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .execute()

const activity = (token: string, query = '') =>
  t.request(`${routes.embeddedWalletsKeyActivity}${query}`, { token })

beforeAll(async () => {
  t = await getTestInstance({
    trustProxy: true,
    rateLimits: { walletKeyRequestsPerIp: { limit: 5, windowMs: 10 * 60_000 } },
  })
  owner = await login('owner@example.com')
  body = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, { token: owner.token, body })
  expect(created.status).toBe(200)
})
afterAll(() => t.close())

it('an auth-share release records exactly one row with who, what, when and where', async () => {
  const res = await release(routes.embeddedWalletsAuthShare, owner.token, {
    ua: `Agent/${'x'.repeat(400)}`,
  })
  expect(res).toMatchObject({ status: 200, body: { auth_share: body.auth_share } })
  expect(await rows(owner.userId)).toEqual([
    {
      id: expect.any(String),
      app_id: t.app.id,
      user_id: owner.userId,
      entropy_id: body.entropy_id.toLowerCase(),
      kind: 'auth_share',
      session_id: owner.sessionId,
      // The key whose proof the release answered (the session's).
      enclave_key_thumbprint: t.enclaveKey.jkt,
      // The proxy's last X-Forwarded-For entry (http/client-ip.ts), not the client's.
      ip: '203.0.113.7',
      user_agent: `Agent/${'x'.repeat(400)}`.slice(0, KEY_RELEASE_USER_AGENT_MAX),
      created_at: t.clock.now(),
    },
  ])
})

it('a recovery release records exactly one row of kind recovery', async () => {
  t.clock.advance(1000)
  const before = (await rows(owner.userId)).length
  const res = await release(routes.embeddedWalletsRecovery, owner.token)
  expect(res).toMatchObject({ status: 200, body: { recovery: body.recovery } })
  const after = await rows(owner.userId)
  expect(after).toHaveLength(before + 1)
  expect(after.at(-1)).toMatchObject({
    kind: 'recovery',
    session_id: owner.sessionId,
    ip: '203.0.113.7',
    user_agent: 'TestBrowser/1.0',
    created_at: t.clock.now(),
  })
})

it('a refused release records nothing: no session, another user, an unknown secret, rate limited', async () => {
  const stranger = await login('stranger@example.com')
  const total = await t.countRows('key_releases')
  for (const path of [routes.embeddedWalletsAuthShare, routes.embeddedWalletsRecovery]) {
    expect((await release(path, 'not-a-jwt', { ip: '203.0.113.20' })).status).toBe(401)
    expect((await release(path, stranger.token, { ip: '203.0.113.20' })).status).toBe(404)
    const unknown = await release(path, owner.token, {
      ip: '203.0.113.20',
      entropyId: ethAddress(),
    })
    expect(unknown.status).toBe(404)
  }
  // Four calls from this IP counted (401s are refused before the limiter); one more is the fifth.
  expect(
    (
      await release(routes.embeddedWalletsRecovery, owner.token, {
        ip: '203.0.113.20',
        entropyId: ethAddress(),
      })
    ).status,
  ).toBe(404)
  // The sixth, of a budget of five: a valid release, refused.
  const limited = await release(routes.embeddedWalletsAuthShare, owner.token, {
    ip: '203.0.113.20',
  })
  expect(limited).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
  expect(await t.countRows('key_releases')).toBe(total)
})

it('a failed audit write releases nothing', async () => {
  await sql`alter table key_releases rename to key_releases_off`.execute(t.db)
  try {
    for (const path of [routes.embeddedWalletsAuthShare, routes.embeddedWalletsRecovery]) {
      const res = await release(path, owner.token, { ip: '203.0.113.30' })
      expect(res).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
      expect(JSON.stringify(res.body)).not.toContain(body.auth_share)
      expect(JSON.stringify(res.body)).not.toContain(body.recovery.ciphertext)
    }
  } finally {
    await sql`alter table key_releases_off rename to key_releases`.execute(t.db)
  }
})

it('the list route returns only the caller’s rows, newest first, paginated', async () => {
  const user = await login('lister@example.com')
  const wallet = hdBody()
  expect(
    (await t.enclaveRequest(routes.embeddedWalletsCreate, { token: user.token, body: wallet }))
      .status,
  ).toBe(200)
  const kinds = ['auth_share', 'recovery', 'auth_share'] as const
  for (const [i, kind] of kinds.entries()) {
    t.clock.advance(1000)
    const path =
      kind === 'auth_share' ? routes.embeddedWalletsAuthShare : routes.embeddedWalletsRecovery
    const res = await release(path, user.token, {
      ip: `203.0.113.${40 + i}`,
      entropyId: wallet.entropy_id,
    })
    expect(res.status).toBe(200)
  }
  const all = await activity(user.token)
  expect(all.status).toBe(200)
  expect(all.body.next_cursor).toBeNull()
  expect(all.body.data.map((r: { ip: string }) => r.ip)).toEqual([
    '203.0.113.42',
    '203.0.113.41',
    '203.0.113.40',
  ])
  expect(all.body.data[0]).toEqual({
    id: expect.any(String),
    kind: 'auth_share',
    entropy_id: wallet.entropy_id.toLowerCase(),
    created_at: Math.floor(t.clock.now() / 1000),
    session_id: user.sessionId,
    enclave_key_thumbprint: t.enclaveKey.jkt,
    ip: '203.0.113.42',
    user_agent: 'TestBrowser/1.0',
  })

  const first = await activity(user.token, '?limit=2')
  expect(first.body.data.map((r: { ip: string }) => r.ip)).toEqual(['203.0.113.42', '203.0.113.41'])
  expect(first.body.next_cursor).toEqual(expect.any(String))
  const second = await activity(user.token, `?limit=2&cursor=${first.body.next_cursor}`)
  expect(second.body.data.map((r: { ip: string }) => r.ip)).toEqual(['203.0.113.40'])
  expect(second.body.next_cursor).toBeNull()

  expect((await activity(user.token, '?limit=101')).status).toBe(400)
  expect((await activity(user.token, '?limit=0')).status).toBe(400)
  expect((await t.request(routes.embeddedWalletsKeyActivity)).status).toBe(401)
})

it("another user's token sees none of the owner's rows", async () => {
  const stranger = await login('nobody@example.com')
  const res = await activity(stranger.token)
  expect(res).toMatchObject({ status: 200, body: { data: [], next_cursor: null } })
  const own = await activity(owner.token)
  expect(own.body.data.length).toBeGreaterThan(0)
  expect(own.body.data.every((r: { session_id: string }) => r.session_id === owner.sessionId)).toBe(
    true,
  )
})

it('latchkey users key-activity lists the user’s rows, newest first', async () => {
  const out: string[] = []
  const run = (argv: string[]) =>
    runCli(argv, { db: t.db, env: {}, out: (line) => out.push(line), err: () => {} })
  expect(await run(['users', 'key-activity', owner.userId, '--json'])).toBe(0)
  const listed = JSON.parse(out.join('\n'))
  expect(listed.map((r: { kind: string }) => r.kind)).toEqual(['recovery', 'auth_share'])
  expect(listed[0]).toMatchObject({ session_id: owner.sessionId, ip: '203.0.113.7' })
  out.length = 0
  expect(await run(['users', 'key-activity', owner.userId])).toBe(0)
  expect(out).toHaveLength(2)
  expect(out[0]).toContain('recovery')
  expect(out[0]).toContain('ip 203.0.113.7')
  expect(out[0]).toContain(`key ${t.enclaveKey.jkt}`)
  out.length = 0
  expect(await run(['users', 'key-activity', 'did:latchkey:nobody'])).toBe(0)
  expect(out).toEqual(['No key releases recorded for did:latchkey:nobody'])
})

it('rows are kept for the retention period, then purged', async () => {
  const total = await t.countRows('key_releases')
  const newest = await t.db
    .selectFrom('key_releases')
    .select(sql<number>`max(created_at)`.as('at'))
    .executeTakeFirstOrThrow()
  const counts = await purgeExpired(t.db, Number(newest.at) + KEY_RELEASE_RETENTION_MS - 1)
  expect(await t.countRows('key_releases')).toBeGreaterThan(0)
  expect(counts.key_releases).toBeLessThan(total)
  expect(
    (await purgeExpired(t.db, Number(newest.at) + KEY_RELEASE_RETENTION_MS)).key_releases,
  ).toBe(total - counts.key_releases)
  expect(await t.countRows('key_releases')).toBe(0)
})
