import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FarcasterTestInstance, getFarcasterTestInstance } from './farcaster.fixture.ts'

/*
 * A channel (and so its nonce) opens one session: it is spent by one
 * conditional UPDATE once its proof verified, so a replay, or two concurrent
 * submissions of the same proof, give exactly one session.
 */

let t: FarcasterTestInstance
beforeAll(async () => {
  t = await getFarcasterTestInstance()
})
afterAll(() => t?.close())

const used = {
  status: 400,
  body: { code: 'AUTHENTICATION_FAILED', details: { reason: 'channel_used' } },
}

async function sessions(): Promise<number> {
  return t.countRows('sessions')
}

describe('farcaster channel single use', () => {
  it('refuses a replay of a proof that already logged in', async () => {
    const user = await t.newFarcasterUser()
    const body = await t.proof(user)
    expect((await t.authenticate(body)).status).toBe(200)
    const before = await sessions()
    expect(await t.authenticate(body)).toMatchObject(used)
    expect(await t.status(body.channel_token)).toMatchObject(used)
    expect(await sessions()).toBe(before)
  })

  it('gives one session to two concurrent submissions of one proof', async () => {
    const user = await t.newFarcasterUser()
    const body = await t.proof(user)
    const before = await sessions()
    const results = await Promise.all([t.authenticate(body), t.authenticate(body)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400])
    expect(results.find((r) => r.status === 400)).toMatchObject(used)
    expect(await sessions()).toBe(before + 1)
    const accounts = await t.db
      .selectFrom('linked_accounts')
      .select('user_id')
      .where('type', '=', 'farcaster')
      .where('identifier', '=', String(user.fid))
      .execute()
    expect(accounts).toHaveLength(1)
  })

  it('a proof that logged in cannot be used to link', async () => {
    const user = await t.newFarcasterUser()
    const body = await t.proof(user)
    expect((await t.authenticate(body)).status).toBe(200)
    const other = await t.login('single-use@example.com')
    expect(await t.link(body, other.token)).toMatchObject(used)
  })
})
