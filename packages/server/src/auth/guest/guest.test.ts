import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sha256 } from '../../ids.ts'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: { login_methods: { email: true, guest: true } } })
})
afterAll(() => t.close())

const credential = () => randomBytes(32).toString('base64url')
const asGuest = (guest_credential: string, options: { appId?: string; token?: string } = {}) =>
  t.request(routes.guestAuthenticate, { body: { guest_credential }, ...options })

describe('guest login', () => {
  it('the same credential logs into the same guest user', async () => {
    const c = credential()
    const first = await asGuest(c)
    expect(first.status).toBe(200)
    expect(first.body).toMatchObject({ is_new_user: true, user: { is_guest: true } })
    expect(first.body.user.linked_accounts).toEqual([expect.objectContaining({ type: 'guest' })])
    const again = await asGuest(c)
    expect(again.body).toMatchObject({ is_new_user: false, user: { id: first.body.user.id } })
  })

  it('a different credential is a different user', async () => {
    const a = await asGuest(credential())
    const b = await asGuest(credential())
    expect(a.body.user.id).not.toBe(b.body.user.id)
  })

  it('stores only the SHA-256 of the credential', async () => {
    const c = credential()
    await asGuest(c)
    const rows = await t.db
      .selectFrom('linked_accounts')
      .selectAll()
      .where('type', '=', 'guest')
      .execute()
    expect(rows.some((r) => r.identifier === sha256(c))).toBe(true)
    expect(JSON.stringify(rows)).not.toContain(c)
  })

  it('refuses a credential that is not 32 bytes of base64url', async () => {
    for (const bad of ['short', `${credential()}A`, `${'x'.repeat(42)}=`]) {
      expect((await asGuest(bad)).body.code).toBe('INVALID_PAYLOAD')
    }
  })

  it('is refused when the app switched guests off', async () => {
    const off = await t.createApp({ login_methods: { email: true } })
    const res = await asGuest(credential(), { appId: off.id })
    expect(res).toMatchObject({ status: 403, body: { code: 'LOGIN_METHOD_NOT_ALLOWED' } })
  })
})
