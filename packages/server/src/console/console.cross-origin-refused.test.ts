import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { TEST_ORIGIN } from '../test/origin.ts'
import { consoleRequest, createAdminWithCli, signIn } from './console.test-helper.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it('a cross-origin mutating call → 403, even from an app origin the server allows', async () => {
  const session = await signIn(t)
  const before = await t.db.selectFrom('apps').select('id').execute()
  // TEST_ORIGIN is the instance app's allowed origin (same site as the server on another port, say).
  for (const origin of [TEST_ORIGIN, 'https://evil.example', 'null']) {
    const res = await consoleRequest(t, '/apps', {
      session,
      origin,
      body: { name: 'Injected', origins: ['https://evil.example'] },
    })
    expect(res.status, origin).toBe(403)
    expect(res.body.code).toBe('ORIGIN_NOT_ALLOWED')
    expect(res.headers.get('access-control-allow-origin')).toBeNull()
  }
  expect(await t.db.selectFrom('apps').select('id').execute()).toEqual(before)
})

it('a cross-origin read and a cross-site sign-in are refused too (Origin, Fetch Metadata)', async () => {
  const session = await signIn(t, 'reader')
  const read = await consoleRequest(t, '/apps', { session, origin: TEST_ORIGIN })
  expect(read.status).toBe(403)
  const fetchMetadata = await consoleRequest(t, '/apps', {
    session,
    headers: { 'sec-fetch-site': 'same-site' },
  })
  expect(fetchMetadata.status).toBe(403)
  const { token } = await createAdminWithCli(t, 'phished')
  const login = await consoleRequest(t, '/login', {
    origin: 'https://evil.example',
    body: { token },
  })
  expect(login.status).toBe(403)
  // The console itself: same origin.
  expect((await consoleRequest(t, '/apps', { session, origin: t.ownOrigin })).status).toBe(200)
})
