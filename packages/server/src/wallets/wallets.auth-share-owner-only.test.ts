import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { ethAddress, hdBody } from '../test/wallets.ts'

// Security bar 41: the auth share (and the recovery material, which with it
// rebuilds the key) is released only to a valid session of the wallet's owner.
let t: TestInstance
let owner: string
let body: ReturnType<typeof hdBody>
beforeAll(async () => {
  t = await getTestInstance()
  owner = (await t.login('owner@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  body = hdBody({ solana: true })
  expect(
    (await t.enclaveRequest(routes.embeddedWalletsCreate, { token: owner, body })).status,
  ).toBe(200)
})
afterAll(() => t.close())

const ask = (
  token: string | undefined,
  entropyId = body.entropy_id,
  path: string = routes.embeddedWalletsAuthShare,
) => t.enclaveRequest(path, { ...(token ? { token } : {}), body: { entropy_id: entropyId } })

it('the owner gets the auth share it stored', async () => {
  expect(await ask(owner)).toMatchObject({
    status: 200,
    body: { entropy_id: body.entropy_id, auth_share: body.auth_share },
  })
})

it('no token, or a garbage one: 401 and no share', async () => {
  for (const res of [await ask(undefined), await ask('not-a-jwt'), await ask(`${owner}x`)]) {
    expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
    expect(JSON.stringify(res.body)).not.toContain(body.auth_share)
  }
})

it("another user's valid session: 404, the same answer as an unknown entropy id", async () => {
  const other = (await t.login('other@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  for (const path of [routes.embeddedWalletsAuthShare, routes.embeddedWalletsRecovery]) {
    const foreign = await ask(other, body.entropy_id, path)
    const unknown = await ask(other, ethAddress(), path)
    expect(foreign).toMatchObject({ status: 404, body: { code: 'WALLET_NOT_FOUND' } })
    expect(foreign.body).toEqual(unknown.body)
    expect(JSON.stringify(foreign.body)).not.toContain(body.auth_share)
  }
})

it("a revoked session (logged out) gets 401, while the owner's other session still works", async () => {
  const session = await t.login('owner@example.com', { enclaveKey: t.enclaveKey })
  expect((await ask(session.token ?? '')).status).toBe(200)
  await t.request(routes.sessionLogout, {
    token: session.token ?? '',
    body: { refresh_token: session.refresh_token },
  })
  const res = await ask(session.token ?? '')
  expect(res).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
  expect(JSON.stringify(res.body)).not.toContain(body.auth_share)
  expect((await ask(owner)).status).toBe(200)
})

it('an expired access token gets 401', async () => {
  const session = await t.login('owner@example.com', { enclaveKey: t.enclaveKey })
  t.clock.advance(2 * 60 * 60_000)
  expect(await ask(session.token ?? '')).toMatchObject({ status: 401 })
  owner = (await t.login('owner@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  expect((await ask(owner)).status).toBe(200)
})

it("a session of another app cannot reach this app's wallets", async () => {
  const otherApp = await t.createApp()
  const stranger =
    (await t.login('owner@example.com', { appId: otherApp.id, enclaveKey: t.enclaveKey })).token ??
    ''
  // Its own app: the secret is not there.
  const own = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
    token: stranger,
    appId: otherApp.id,
    body: { entropy_id: body.entropy_id },
  })
  expect(own).toMatchObject({ status: 404, body: { code: 'WALLET_NOT_FOUND' } })
  // This app, with the other app's token: not a session of this app.
  expect(await ask(stranger)).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
})

it('the recovery material follows the same rule', async () => {
  expect(await ask(owner, body.entropy_id, routes.embeddedWalletsRecovery)).toMatchObject({
    status: 200,
    body: { entropy_id: body.entropy_id, recovery: body.recovery },
  })
  expect((await ask(undefined, body.entropy_id, routes.embeddedWalletsRecovery)).status).toBe(401)
})
