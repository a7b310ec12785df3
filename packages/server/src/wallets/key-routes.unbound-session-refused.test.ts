import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { sessionIdOfOwnNewAccessToken } from '../sessions/tokens.ts'
import { keyMaterialSnapshot, keyRouteCalls } from '../test/enclave-key.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

// A login without the `latchkey-enclave-key` header makes an unbound session:
// no proof can ever match it, so its key routes always answer 401
// ENCLAVE_PROOF_INVALID. Logging in again with the header binds only the new
// session; the old one stays unbound.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const refused = { status: 401, body: { code: 'ENCLAVE_PROOF_INVALID' } }
const bindingOf = async (token: string) =>
  (
    await t.db
      .selectFrom('sessions')
      .select('enclave_jkt')
      .where('id', '=', sessionIdOfOwnNewAccessToken(token))
      .executeTakeFirstOrThrow()
  ).enclave_jkt

it('an unbound session: every key route refuses it, whatever key signs the proof', async () => {
  const unbound = (await t.login('owner@example.com')).token ?? ''
  expect(await bindingOf(unbound)).toBeNull()
  // Host routes work with it.
  expect((await t.request(routes.usersMe, { token: unbound })).status).toBe(200)
  const before = await keyMaterialSnapshot(t)
  for (const { name, path, body } of keyRouteCalls(hdBody())) {
    const res = await t.enclaveRequest(path, { token: unbound, body })
    expect({ name, ...res }).toMatchObject({ name, ...refused })
  }
  expect(await keyMaterialSnapshot(t)).toEqual(before)
})

it('a new login with the header binds the new session only', async () => {
  const unbound = (await t.login('owner@example.com')).token ?? ''
  const bound = (await t.login('owner@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  expect(await bindingOf(bound)).toBe(t.enclaveKey.jkt)
  expect(await bindingOf(unbound)).toBeNull()

  const wallet = hdBody()
  expect(
    (await t.enclaveRequest(routes.embeddedWalletsCreate, { token: bound, body: wallet })).status,
  ).toBe(200)
  const share = { entropy_id: wallet.entropy_id }
  expect(
    await t.enclaveRequest(routes.embeddedWalletsAuthShare, { token: bound, body: share }),
  ).toMatchObject({ status: 200, body: { auth_share: wallet.auth_share } })
  expect(
    await t.enclaveRequest(routes.embeddedWalletsAuthShare, { token: unbound, body: share }),
  ).toMatchObject(refused)
  expect(await bindingOf(unbound)).toBeNull()
})
