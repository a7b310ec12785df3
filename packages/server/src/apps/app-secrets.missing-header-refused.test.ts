import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { appRequest, basicAuth } from './app-secrets.test-helper.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('no credentials, malformed ones, or no / another latchkey-app-id header: 401 APP_AUTH_REQUIRED', async () => {
  const noAuthorization = await t.request(routes.appUsers)
  const bearer = await t.request(routes.appUsers, { token: t.appSecret })
  const noColon = await t.request(routes.appUsers, {
    headers: { authorization: `Basic ${Buffer.from(t.app.id).toString('base64')}` },
  })
  const noSecret = await t.request(routes.appUsers, {
    headers: { authorization: basicAuth(t.app.id, '') },
  })
  const noAppHeader = await appRequest(t, routes.appUsers, { appId: null })
  const otherAppHeader = await t.request(routes.appUsers, {
    appId: 'otherappotherappotherappo',
    headers: { authorization: basicAuth(t.app.id, t.appSecret) },
  })
  for (const res of [noAuthorization, bearer, noColon, noSecret, noAppHeader, otherAppHeader]) {
    expect(res.status).toBe(401)
    expect(res.body.code).toBe('APP_AUTH_REQUIRED')
    expect(res.body.message).toBeTruthy()
  }
})

it("a user's access token opens no app route", async () => {
  const { token } = await t.login('user@example.com')
  const res = await t.request(routes.appUsers, { token: token ?? '' })
  expect(res.status).toBe(401)
  expect(res.body.code).toBe('APP_AUTH_REQUIRED')
})
