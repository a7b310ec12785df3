import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { PASSKEY_APP_SETTINGS, passkeyCreate, SoftwareAuthenticator } from './testing.ts'

// Security bar 26 (WebAuthn §7.1 step 26): a credential id already
// registered to any user, of any app, is refused (PASSKEY_ALREADY_LINKED),
// whether by sign-up or by link, and two concurrent registrations of one id
// leave one account.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: PASSKEY_APP_SETTINGS })
})
afterAll(() => t.close())

/** Another key under the same credential id (what an attacker would submit). */
const impostor = (of: SoftwareAuthenticator) =>
  new SoftwareAuthenticator({ credentialId: of.credentialId })

const passkeyRows = (id: string) =>
  t.db.selectFrom('linked_accounts').select('user_id').where('identifier', '=', id).execute()

describe('passkey credential id', () => {
  it('registered to one user can not sign up another', async () => {
    const victim = new SoftwareAuthenticator()
    expect((await passkeyCreate(t, victim)).status).toBe(200)
    const users = await t.countRows('users')
    const res = await passkeyCreate(t, impostor(victim))
    expect(res).toMatchObject({ status: 400, body: { code: 'PASSKEY_ALREADY_LINKED' } })
    expect(await t.countRows('users')).toBe(users)
    expect(await passkeyRows(victim.id)).toHaveLength(1)
  })

  it('registered to one user can not be linked to another, nor again to the same', async () => {
    const victim = new SoftwareAuthenticator()
    const owner = await passkeyCreate(t, victim)
    const session = await t.login('linker@example.com')
    const res = await passkeyCreate(t, impostor(victim), { link: true, token: session.token })
    expect(res.body.code).toBe('PASSKEY_ALREADY_LINKED')
    const again = await passkeyCreate(t, impostor(victim), { link: true, token: owner.body.token })
    expect(again.body.code).toBe('PASSKEY_ALREADY_LINKED')
    expect(await passkeyRows(victim.id)).toHaveLength(1)
  })

  it('registered in one app is refused in every other app', async () => {
    const other = await t.createApp(PASSKEY_APP_SETTINGS)
    const victim = new SoftwareAuthenticator()
    expect((await passkeyCreate(t, victim)).status).toBe(200)
    const res = await passkeyCreate(t, impostor(victim), { appId: other.id })
    expect(res.body.code).toBe('PASSKEY_ALREADY_LINKED')
  })

  it('is unique across apps in the database itself (two apps racing cannot both store it)', async () => {
    const other = await t.createApp(PASSKEY_APP_SETTINGS)
    const victim = new SoftwareAuthenticator()
    expect((await passkeyCreate(t, victim)).status).toBe(200)
    const now = Date.now()
    await t.db
      .insertInto('users')
      .values({
        id: 'racer',
        app_id: other.id,
        created_at: now,
        has_accepted_terms: 0,
        is_guest: 0,
      })
      .execute()
    const row = {
      id: 'racer-passkey',
      user_id: 'racer',
      app_id: other.id,
      type: 'passkey',
      identifier: victim.id,
      data: '{}',
      created_at: now,
      first_verified_at: now,
      latest_verified_at: now,
    }
    await expect(t.db.insertInto('linked_accounts').values(row).execute()).rejects.toThrow()
    // Other types keep their per-app uniqueness only.
    await t.db
      .insertInto('linked_accounts')
      .values({ ...row, type: 'custom', identifier: 'same-subject-in-two-apps' })
      .execute()
  })

  it('registered twice at once yields one account', async () => {
    const first = new SoftwareAuthenticator()
    const results = await Promise.all([passkeyCreate(t, first), passkeyCreate(t, impostor(first))])
    expect(results.map((r) => r.body.code ?? r.status).sort()).toEqual([
      200,
      'PASSKEY_ALREADY_LINKED',
    ])
    expect(await passkeyRows(first.id)).toHaveLength(1)
  })
})
