import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_ORIGIN } from '../../test/instance.ts'
import { insertAccount } from '../../users/service.ts'
import { type FarcasterTestInstance, getFarcasterTestInstance } from './farcaster.fixture.ts'

/*
 * Linking: one Farcaster account per user, never one already owned by another
 * user; unlinking by fid, keeping at least one login method.
 */

let t: FarcasterTestInstance
beforeAll(async () => {
  t = await getFarcasterTestInstance()
})
afterAll(() => t?.close())

const unlink = (fid: number, token: string | null) =>
  t.request(routes.farcasterUnlink, {
    body: { fid },
    token: token ?? undefined,
    origin: TEST_ORIGIN,
  })

describe('farcaster link and unlink', () => {
  it('links a Farcaster account to the signed-in user, who can then log in with it', async () => {
    const session = await t.login('link@example.com')
    const user = await t.newFarcasterUser()
    const res = await t.link(
      await t.proof(user, { profile: { username: 'linker' } }),
      session.token,
    )
    expect(res.status).toBe(200)
    expect(res.body.id).toBe(session.user.id)
    expect(res.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual([
      'email',
      'farcaster',
    ])
    expect(res.body.linked_accounts[1]).toMatchObject({
      fid: user.fid,
      owner_address: user.account.address,
      username: 'linker',
    })
    const login = await t.authenticate(await t.proof(user))
    expect(login.body).toMatchObject({ is_new_user: false, user: { id: session.user.id } })
  })

  it('needs a signed-in user', async () => {
    const user = await t.newFarcasterUser()
    const res = await t.request(routes.farcasterLink, {
      body: await t.proof(user),
      origin: TEST_ORIGIN,
    })
    expect(res.status).toBe(401)
  })

  it("offers a transfer of an fid that is its owner's only login method, else refuses", async () => {
    const user = await t.newFarcasterUser()
    const owner = await t.authenticate(await t.proof(user))
    const session = await t.login('taken@example.com')
    // The fid is the owner's only login method: a transfer is offered
    // (docs/access-control.md; users/transfer.test.ts covers the transfer).
    expect(await t.link(await t.proof(user), session.token)).toMatchObject({
      status: 400,
      body: { code: 'ACCOUNT_TRANSFER_REQUIRED', details: { nonce: expect.any(String) } },
    })
    // With a second login method the owner keeps the fid: plain refusal.
    await insertAccount(
      t.db,
      t.app.id,
      owner.body.user.id,
      { type: 'email', identifier: 'fid-owner@example.com', data: {} },
      t.clock.now(),
    )
    const res = await t.link(await t.proof(user), session.token)
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'ACCOUNT_ALREADY_LINKED',
        message: 'This account has already been linked to another user.',
      },
    })
  })

  it('refuses a second Farcaster account on one user', async () => {
    const session = await t.login('two@example.com')
    const first = await t.newFarcasterUser()
    const second = await t.newFarcasterUser()
    expect((await t.link(await t.proof(first), session.token)).status).toBe(200)
    const res = await t.link(await t.proof(second), session.token)
    expect(res).toMatchObject({ status: 400, body: { code: 'CANNOT_LINK_MORE_OF_TYPE' } })
  })

  it('unlinks by fid; the last login method stays', async () => {
    const session = await t.login('unlink@example.com')
    const user = await t.newFarcasterUser()
    await t.link(await t.proof(user), session.token)
    expect(await unlink(user.fid + 1, session.token)).toMatchObject({
      status: 404,
      body: { code: 'ACCOUNT_NOT_LINKED' },
    })
    const res = await unlink(user.fid, session.token)
    expect(res.status).toBe(200)
    expect(res.body.linked_accounts.map((a: { type: string }) => a.type)).toEqual(['email'])

    const only = await t.authenticate(await t.proof(await t.newFarcasterUser()))
    const fid = only.body.user.linked_accounts[0].fid
    expect(await unlink(fid, only.body.token)).toMatchObject({
      status: 400,
      body: { code: 'CANNOT_UNLINK_LAST_ACCOUNT' },
    })
  })
})
