import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256 } from '../ids.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { openSuccessor } from './successor.ts'

// Security bar 31 (overlap window): a rotated refresh token presented again
// inside the window gets the successor it was already exchanged for, never a
// second one, so the family does not fork; concurrent refreshes of one token
// yield one successor. The successor is kept only sealed under the old token.
const OVERLAP_MS = 10_000
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const refresh = (token: string, appId?: string) =>
  t.request(routes.sessionRefresh, {
    body: { refresh_token: token },
    ...(appId ? { appId } : {}),
  })

/** The refresh-token rows of the (only) session of `userId`. */
const tokenRows = (userId: string) =>
  t.db
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .select([
      'refresh_tokens.token_hash',
      'refresh_tokens.replaced_by',
      'refresh_tokens.successor',
      'sessions.revoked_at',
    ])
    .where('sessions.user_id', '=', userId)
    .execute()

describe('a replay inside the window answers with the same successor', () => {
  it('the same refresh token, up to the last millisecond of the window', async () => {
    const login = await t.login('same@example.com')
    const first = await refresh(login.refresh_token ?? '')
    expect(first.status).toBe(200)
    t.clock.advance(OVERLAP_MS / 2)
    const again = await refresh(login.refresh_token ?? '')
    expect(again.status).toBe(200)
    expect(again.body.refresh_token).toBe(first.body.refresh_token)
    t.clock.advance(OVERLAP_MS / 2)
    const edge = await refresh(login.refresh_token ?? '')
    expect(edge.status).toBe(200)
    expect(edge.body.refresh_token).toBe(first.body.refresh_token)
    // Still one successor: the login token and the one it was exchanged for.
    const rows = await tokenRows(login.user.id)
    expect(rows).toHaveLength(2)
    expect(rows.every((r) => r.revoked_at === null)).toBe(true)
  })

  it('each answer is a full session: working access token, user, identity token', async () => {
    const login = await t.login('full@example.com')
    await refresh(login.refresh_token ?? '')
    t.clock.advance(1_000)
    const again = await refresh(login.refresh_token ?? '')
    expect(again.body).toMatchObject({
      session_update_action: 'set',
      is_new_user: false,
      user: { id: login.user.id },
    })
    expect(typeof again.body.identity_token).toBe('string')
    expect((await t.request(routes.usersMe, { token: again.body.token })).status).toBe(200)
  })

  it('the successor then rotates as usual, and its own replay is idempotent too', async () => {
    const login = await t.login('chain-ok@example.com')
    const s1 = (await refresh(login.refresh_token ?? '')).body.refresh_token
    t.clock.advance(60_000)
    const s2 = await refresh(s1)
    expect(s2.status).toBe(200)
    expect(s2.body.refresh_token).not.toBe(s1)
    t.clock.advance(2_000)
    expect((await refresh(s1)).body.refresh_token).toBe(s2.body.refresh_token)
    t.clock.advance(60_000)
    expect((await refresh(s2.body.refresh_token)).status).toBe(200)
    expect(await tokenRows(login.user.id)).toHaveLength(4)
  })

  it('10 concurrent refreshes of one token yield one successor', async () => {
    const login = await t.login('burst@example.com')
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => refresh(login.refresh_token ?? '')),
    )
    expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200))
    const successors = new Set(answers.map((a) => a.body.refresh_token))
    expect(successors.size).toBe(1)
    const rows = await tokenRows(login.user.id)
    expect(rows).toHaveLength(2)
    const [successor] = [...successors]
    expect(rows.find((r) => r.token_hash === sha256(login.refresh_token ?? ''))?.replaced_by).toBe(
      sha256(successor),
    )
    // The one successor works; the family is intact.
    t.clock.advance(60_000)
    expect((await refresh(successor)).status).toBe(200)
  })

  it('concurrent replays inside the window after the rotation agree too', async () => {
    const login = await t.login('late-burst@example.com')
    const first = (await refresh(login.refresh_token ?? '')).body.refresh_token
    t.clock.advance(3_000)
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => refresh(login.refresh_token ?? '')),
    )
    expect(new Set(answers.map((a) => a.body.refresh_token))).toEqual(new Set([first]))
    expect(await tokenRows(login.user.id)).toHaveLength(2)
  })

  it('a token of this app presented to another app gets nothing, and keeps its session', async () => {
    const other = await t.createApp()
    const login = await t.login('cross@example.com')
    const first = (await refresh(login.refresh_token ?? '')).body.refresh_token
    expect(await refresh(login.refresh_token ?? '', other.id)).toMatchObject({
      status: 401,
      body: { code: 'INVALID_REFRESH_TOKEN' },
    })
    expect((await refresh(login.refresh_token ?? '')).body.refresh_token).toBe(first)
  })
})

describe('the successor is recoverable only with the old token', () => {
  it('is stored sealed, never as a usable token', async () => {
    const login = await t.login('sealed@example.com')
    const successor = (await refresh(login.refresh_token ?? '')).body.refresh_token as string
    const rows = await tokenRows(login.user.id)
    const dump = JSON.stringify(rows)
    expect(dump).not.toContain(successor)
    expect(dump).not.toContain(login.refresh_token)
    const old = rows.find((r) => r.token_hash === sha256(login.refresh_token ?? ''))
    expect(old?.successor).toMatch(/^v1\./)
    const services = t.server.services
    const hash = sha256(login.refresh_token ?? '')
    expect(openSuccessor(services, login.refresh_token ?? '', hash, old?.successor ?? '')).toBe(
      successor,
    )
    // Another token (the successor itself, or one of the same length) does not open it.
    expect(openSuccessor(services, successor, hash, old?.successor ?? '')).toBeNull()
    expect(
      openSuccessor(services, `${login.refresh_token}x`, hash, old?.successor ?? ''),
    ).toBeNull()
  })

  it('a tampered seal is refused (no new token, no revocation)', async () => {
    const login = await t.login('tampered@example.com')
    const successor = (await refresh(login.refresh_token ?? '')).body.refresh_token as string
    const hash = sha256(login.refresh_token ?? '')
    const row = await t.db
      .selectFrom('refresh_tokens')
      .select('successor')
      .where('token_hash', '=', hash)
      .executeTakeFirstOrThrow()
    const [v, iv, data, tag] = (row.successor ?? '').split('.')
    const flipped = Buffer.from(data ?? '', 'base64url')
    flipped[0] = (flipped[0] ?? 0) ^ 1
    await t.db
      .updateTable('refresh_tokens')
      .set({ successor: [v, iv, flipped.toString('base64url'), tag].join('.') })
      .where('token_hash', '=', hash)
      .execute()
    t.clock.advance(1_000)
    expect(await refresh(login.refresh_token ?? '')).toMatchObject({
      status: 401,
      body: { code: 'INVALID_REFRESH_TOKEN' },
    })
    expect(await tokenRows(login.user.id)).toHaveLength(2)
    t.clock.advance(60_000)
    expect((await refresh(successor)).status).toBe(200)
  })
})
