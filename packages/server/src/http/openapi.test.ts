import { Header, routes } from '@latchkey/protocol'
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

it('documents the enclave proof on key routes and the enclave key on login routes', async () => {
  const doc = (await t.request(routes.openapi, { appId: null })).body
  const proof = expect.objectContaining({ name: Header.enclaveProof, in: 'header', required: true })
  const key = expect.objectContaining({ name: Header.enclaveKey, in: 'header', required: false })
  for (const path of [
    routes.embeddedWalletsCreate,
    routes.embeddedWalletsAdd,
    routes.embeddedWalletsAuthShare,
    routes.embeddedWalletsRecovery,
    routes.embeddedWalletsSetRecovery,
    routes.recoveryOAuthAuthenticate,
  ]) {
    expect(doc.paths[path].post.security, path).toEqual([{ bearer: [] }])
    expect(doc.paths[path].post.parameters, path).toContainEqual(proof)
  }
  for (const path of [routes.embeddedWalletsKeyActivity, routes.usersMe])
    expect(doc.paths[path].get.parameters, path).not.toContainEqual(proof)
  for (const path of [routes.emailAuthenticate, routes.passkeyRegister, routes.oauthAuthenticate])
    expect(doc.paths[path].post.parameters, path).toContainEqual(key)
  expect(doc.paths[routes.sessionRefresh].post.parameters).not.toContainEqual(key)
})
