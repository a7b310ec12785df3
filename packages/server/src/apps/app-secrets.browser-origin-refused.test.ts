import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { appRequest } from './app-secrets.test-helper.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

it("the right secret sent by a browser is refused: any Origin, even the app's own, or Fetch Metadata", async () => {
  for (const origin of [TEST_ORIGIN, t.ownOrigin, 'https://evil.example', 'null']) {
    const res = await appRequest(t, routes.appUsers, { origin })
    expect(res.status, origin).toBe(403)
    expect(res.body.code).toBe('APP_SECRET_FROM_BROWSER')
  }
  // A same-origin GET carries no Origin, but browsers send Fetch Metadata with every request.
  const fetchMetadata: Array<Record<string, string>> = [
    { 'sec-fetch-site': 'same-origin' },
    { 'sec-fetch-dest': 'empty' },
  ]
  for (const headers of fetchMetadata) {
    const res = await appRequest(t, routes.appUsers, { headers })
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('APP_SECRET_FROM_BROWSER')
  }
  expect((await appRequest(t, routes.appUsers)).status).toBe(200)
  // Node's fetch sends Sec-Fetch-Mode itself: a backend using it is no browser.
  const node = await appRequest(t, routes.appUsers, { headers: { 'sec-fetch-mode': 'cors' } })
  expect(node.status).toBe(200)
})
