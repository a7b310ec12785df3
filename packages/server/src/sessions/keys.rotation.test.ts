import { routes } from '@latchkey/protocol'
import { decodeProtectedHeader } from 'jose'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const jwks = async () =>
  (await t.request(routes.jwks(t.app.id), { appId: null })).body.keys as Array<{ kid: string }>

it('a rotated key keeps verifying its tokens until they expire, then leaves the JWKS', async () => {
  const before = await t.login('rot@example.com')
  const oldKid = decodeProtectedHeader(before.token ?? '').kid
  const newKid = await t.server.services.keys.rotate()
  expect(newKid).not.toBe(oldKid)
  expect((await jwks()).map((k) => k.kid).sort()).toEqual([oldKid, newKid].sort())
  // Old token still accepted; new tokens use the new key.
  expect((await t.request(routes.usersMe, { token: before.token ?? '' })).status).toBe(200)
  const after = await t.request(routes.sessionRefresh, {
    body: { refresh_token: before.refresh_token },
  })
  expect(decodeProtectedHeader(after.body.token).kid).toBe(newKid)
  // After the longest token lifetime (+ margin) the old key is unpublished.
  t.clock.advance(3600_000 + 5 * 60_000 + 1)
  expect((await jwks()).map((k) => k.kid)).toEqual([newKid])
})

it('both JWKS endpoints publish the same keys', async () => {
  const wellKnown = (await t.request('/.well-known/jwks.json', { appId: null })).body
  expect(wellKnown.keys).toEqual(await jwks())
})
