import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { keyMaterialSnapshot, keyRouteCalls } from '../test/enclave-key.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'

// Tracker issue 15 (1): key routes answer only to the enclave page, which this
// server serves on its own origin. The host page's origin (the app allows it
// everywhere else) and a request without Origin (a script outside a browser)
// are 403 ORIGIN_NOT_ALLOWED, even with a valid token and a valid proof.
let t: TestInstance
let token: string
let wallet: ReturnType<typeof hdBody>
beforeAll(async () => {
  t = await getTestInstance()
  token = (await t.login('owner@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body: wallet })
  expect(created.status).toBe(200)
})
afterAll(() => t.close())

const forbidden = { status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } }

it("the app's own origin, with a valid proof: 403 on every key route, nothing released", async () => {
  const before = await keyMaterialSnapshot(t)
  for (const { name, path, body } of keyRouteCalls(wallet)) {
    const res = await t.enclaveRequest(path, { token, body, origin: TEST_ORIGIN })
    expect({ name, ...res }).toMatchObject({ name, ...forbidden })
    expect(JSON.stringify(res.body)).not.toContain(wallet.auth_share)
  }
  expect(await keyMaterialSnapshot(t)).toEqual(before)
})

it('no Origin at all (not a browser), with a valid proof: 403 on every key route', async () => {
  const before = await keyMaterialSnapshot(t)
  for (const { name, path, body } of keyRouteCalls(wallet)) {
    const res = await t.enclaveRequest(path, { token, body, origin: null })
    expect({ name, ...res }).toMatchObject({ name, ...forbidden })
  }
  expect(await keyMaterialSnapshot(t)).toEqual(before)
})

it('look-alikes of the own origin are refused too', async () => {
  for (const origin of [
    'null',
    'https://latchkey.test',
    'http://latchkey.test:80',
    'http://latchkey.test.evil.test',
    `${t.ownOrigin}/`,
  ]) {
    const res = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
      token,
      body: { entropy_id: wallet.entropy_id },
      origin,
    })
    expect({ origin, ...res }).toMatchObject({ origin, ...forbidden })
  }
})

it('the host keeps its own routes: key activity answers the app origin', async () => {
  const res = await t.request(routes.embeddedWalletsKeyActivity, { token, origin: TEST_ORIGIN })
  expect(res.status).toBe(200)
  // From the own origin with the same proof-carrying call, the share is released.
  const own = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token,
    body: { entropy_id: wallet.entropy_id },
  })
  expect(own).toMatchObject({ status: 200, body: { auth_share: wallet.auth_share } })
})
