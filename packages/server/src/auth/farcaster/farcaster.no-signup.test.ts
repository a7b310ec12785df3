import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FarcasterTestInstance, getFarcasterTestInstance } from './farcaster.fixture.ts'

/* Spec 01 §5: with sign-up disabled, an fid nobody logged in with before is refused. */

let t: FarcasterTestInstance
beforeAll(async () => {
  t = await getFarcasterTestInstance()
})
afterAll(() => t?.close())

describe('farcaster no-signup', () => {
  it('refuses an unknown fid and creates nobody', async () => {
    const user = await t.newFarcasterUser()
    const users = await t.countRows('users')
    const res = await t.authenticate({ ...(await t.proof(user)), mode: 'no-signup' })
    expect(res).toMatchObject({ status: 404, body: { code: 'USER_DOES_NOT_EXIST' } })
    expect(await t.countRows('users')).toBe(users)
  })

  it('logs a known fid in', async () => {
    const user = await t.newFarcasterUser()
    const first = await t.authenticate(await t.proof(user))
    const res = await t.authenticate({ ...(await t.proof(user)), mode: 'no-signup' })
    expect(res.status).toBe(200)
    expect(res.body).toMatchObject({ is_new_user: false, user: { id: first.body.user.id } })
  })
})
