import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('is an OpenAPI 3.1 document listing every route, generated from the same definitions', async () => {
  const res = await t.request(routes.openapi, { appId: null })
  expect(res.status).toBe(200)
  const doc = res.body
  expect(doc.openapi).toBe('3.1.0')
  const expected: Array<[string, string]> = [
    ['/api/v1/apps/{app_id}', 'get'],
    ['/api/v1/apps/{app_id}/jwks.json', 'get'],
    ['/.well-known/jwks.json', 'get'],
    [routes.emailInit, 'post'],
    [routes.emailAuthenticate, 'post'],
    [routes.emailLink, 'post'],
    [routes.emailUnlink, 'post'],
    [routes.emailUpdate, 'post'],
    [routes.sessionRefresh, 'post'],
    [routes.sessionLogout, 'post'],
    [routes.usersMe, 'get'],
    [routes.embeddedWalletsCreate, 'post'],
    [routes.embeddedWalletsAdd, 'post'],
    [routes.embeddedWalletsAuthShare, 'post'],
    [routes.embeddedWalletsRecovery, 'post'],
    [routes.embeddedWalletsSetRecovery, 'post'],
    [routes.embeddedWalletsKeyActivity, 'get'],
    [routes.recoveryOAuthInit, 'post'],
    [routes.recoveryOAuthInitIcloud, 'post'],
    [routes.recoveryOAuthAuthenticate, 'post'],
    [routes.analyticsEvents, 'post'],
    [routes.devMailbox, 'get'],
    [routes.openapi, 'get'],
  ]
  for (const [path, method] of expected)
    expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined()
  const registered = t.server.routes
    .map((r) => `${r.method} ${r.path.replace(/:([a-z_]+)/g, '{$1}')}`)
    .sort()
  const documented = Object.entries(doc.paths as Record<string, object>)
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m} ${p}`))
    .sort()
  expect(documented).toEqual(registered)

  const init = doc.paths[routes.emailInit].post
  expect(init.requestBody.content['application/json'].schema.properties.email.type).toBe('string')
  expect(init.parameters).toContainEqual(
    expect.objectContaining({ name: 'latchkey-app-id', in: 'header' }),
  )
  expect(doc.paths[routes.usersMe].get.security).toEqual([{ bearer: [] }])
  for (const path of [
    routes.recoveryOAuthInit,
    routes.recoveryOAuthInitIcloud,
    routes.recoveryOAuthAuthenticate,
  ]) {
    expect(doc.paths[path].post.tags).toEqual(['recovery'])
    expect(doc.paths[path].post.security).toEqual([{ bearer: [] }])
  }
})
