import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { SERVER_VERSION } from '../server.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('answers 200 with the version, without an app id, while the database answers', async () => {
  const res = await t.request(routes.health, { appId: null })
  expect(res.status).toBe(200)
  expect(res.body).toEqual({ status: 'ok', version: SERVER_VERSION })
})
