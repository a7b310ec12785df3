import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { adminCli, consoleRequest, createAdminWithCli, sessionFrom } from './console.test-helper.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('a revoked admin is refused: its sessions end at once and its token signs in no more', async () => {
  const { id, token } = await createAdminWithCli(t, 'leaver')
  const session = sessionFrom((await consoleRequest(t, '/login', { body: { token } })).headers)
  expect((await consoleRequest(t, '/me', { session })).body.admin).toEqual({ id, name: 'leaver' })

  const revoked = await adminCli(t, 'admin', 'revoke', id)
  expect(revoked.code).toBe(0)

  const me = await consoleRequest(t, '/me', { session })
  expect(me.status).toBe(401)
  expect(me.body.code).toBe('UNAUTHORIZED')
  const again = await consoleRequest(t, '/login', { body: { token } })
  expect(again.status).toBe(401)
  expect(sessionFrom(again.headers)).toBeUndefined()
  // Revoking twice says there is no live admin of that id.
  expect((await adminCli(t, 'admin', 'revoke', id)).code).toBe(1)
})
