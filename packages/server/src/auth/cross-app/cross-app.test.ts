import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  type CrossAppFixture,
  crossAppFixture,
  PROVIDER_ORIGIN,
  pkce,
  REQUESTER_ORIGIN,
} from './cross-app.fixture.ts'

let f: CrossAppFixture
beforeAll(async () => {
  f = await crossAppFixture()
})
afterAll(() => f.t.close())

describe('cross-app login', () => {
  it('details name the provider for the requester’s landing screen', async () => {
    const res = await f.t.request(routes.crossAppDetails(f.provider.id), {
      appId: f.requester.id,
      origin: REQUESTER_ORIGIN,
    })
    expect(res.body).toEqual({
      id: f.provider.id,
      name: 'Other App',
      logo_url: 'https://provider.test/logo.png',
      custom_api_url: `${PROVIDER_ORIGIN}/wallet`,
      read_only: false,
    })
  })

  it('an app without cross-app sharing is an invalid connected app', async () => {
    const res = await f.t.request(routes.crossAppDetails(f.requester.id), {
      appId: f.requester.id,
      origin: REQUESTER_ORIGIN,
    })
    expect(res).toMatchObject({
      status: 404,
      body: { code: 'CROSS_APP_INVALID_APP', message: 'Invalid connected app' },
    })
  })

  it('accept, trade, log in: the requester user carries the provider wallet; again logs in the same user', async () => {
    const p = await f.providerUser('alice@cross.test')
    const asked = await f.t.request(routes.crossAppRequester, {
      appId: f.provider.id,
      origin: PROVIDER_ORIGIN,
      token: p.token,
      body: { requester_app_id: f.requester.id, origin: REQUESTER_ORIGIN },
    })
    expect(asked.body).toMatchObject({ id: f.requester.id, name: 'Other App' })

    const { verifier, challenge } = pkce()
    const code = (await f.authorize(p.token, { challenge })).body.code as string
    const first = await f.authenticate({ code, verifier })
    expect(first.status).toBe(200)
    expect(first.body.is_new_user).toBe(true)
    expect(first.body.user.linked_accounts).toEqual([
      expect.objectContaining({
        type: 'cross_app',
        subject: p.userId,
        provider_app: { id: f.provider.id },
        embedded_wallets: [{ address: p.address, chain_type: 'ethereum' }],
        smart_wallets: [],
      }),
    ])
    expect(first.body.cross_app).toMatchObject({ provider_app_id: f.provider.id, read_only: false })

    const again = pkce()
    const code2 = (await f.authorize(p.token, { challenge: again.challenge })).body.code
    const second = await f.authenticate({ code: code2, verifier: again.verifier })
    expect(second.body).toMatchObject({ is_new_user: false, user: { id: first.body.user.id } })

    const connections = await f.t.request(routes.crossAppConnections(f.requester.id), {
      appId: f.requester.id,
      origin: REQUESTER_ORIGIN,
      token: second.body.token,
    })
    expect(connections.body).toEqual({
      connections: [
        {
          provider_app_id: f.provider.id,
          provider_app_name: 'Other App',
          provider_app_icon_url: 'https://provider.test/logo.png',
          provider_app_custom_api_url: `${PROVIDER_ORIGIN}/wallet`,
          read_only: false,
        },
      ],
    })

    // The provider page checks the transact token before a signature request.
    const verified = await f.t.request(routes.crossAppTransactVerify, {
      appId: f.provider.id,
      origin: PROVIDER_ORIGIN,
      token: p.token,
      body: { token: second.body.cross_app.token, origin: REQUESTER_ORIGIN },
    })
    expect(verified.body).toEqual({
      requester_app: { id: f.requester.id, name: 'Other App', logo_url: null },
      addresses: [p.address],
    })
    // The first token was replaced by the second login's.
    const old = await f.t.request(routes.crossAppTransactVerify, {
      appId: f.provider.id,
      origin: PROVIDER_ORIGIN,
      token: p.token,
      body: { token: first.body.cross_app.token, origin: REQUESTER_ORIGIN },
    })
    expect(old.body).toMatchObject({
      code: 'CROSS_APP_INVALID_TOKEN',
      message: 'Transactions require a valid token',
    })
  })

  it('links the provider account to a signed-in requester user', async () => {
    const p = await f.providerUser('bob@cross.test')
    const r = await f.t.login('bob@requester.test', { appId: f.requester.id })
    const { verifier, challenge } = pkce()
    const code = (await f.authorize(p.token, { challenge })).body.code
    const linked = await f.t.request(routes.crossAppLink, {
      appId: f.requester.id,
      origin: REQUESTER_ORIGIN,
      token: r.token as string,
      body: { provider_app_id: f.provider.id, code, code_verifier: verifier },
    })
    expect(linked.status).toBe(200)
    expect(linked.body.user.linked_accounts.map((a: { type: string }) => a.type)).toEqual([
      'email',
      'cross_app',
    ])
  })

  it('another user’s token is not this provider user’s', async () => {
    const a = await f.providerUser('carol@cross.test')
    const b = await f.providerUser('dave@cross.test')
    const { verifier, challenge } = pkce()
    const code = (await f.authorize(a.token, { challenge })).body.code
    const grant = (await f.authenticate({ code, verifier })).body.cross_app.token
    const res = await f.t.request(routes.crossAppTransactVerify, {
      appId: f.provider.id,
      origin: PROVIDER_ORIGIN,
      token: b.token,
      body: { token: grant, origin: REQUESTER_ORIGIN },
    })
    expect(res).toMatchObject({ status: 401, body: { code: 'CROSS_APP_INVALID_TOKEN' } })
  })
})
