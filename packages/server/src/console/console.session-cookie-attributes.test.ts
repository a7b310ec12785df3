import { afterAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { consoleRequest, createAdminWithCli, sessionFrom } from './console.test-helper.ts'
import { CONSOLE_COOKIE } from './sessions.ts'

const instances: TestInstance[] = []
afterAll(() => Promise.all(instances.map((t) => t.close())))

async function signInCookie(publicUrl: string) {
  const t = await getTestInstance({ publicUrl })
  instances.push(t)
  const { token } = await createAdminWithCli(t)
  const res = await consoleRequest(t, '/login', { body: { token } })
  expect(res.status).toBe(200)
  const line = res.headers.getSetCookie().find((c) => c.startsWith(`${CONSOLE_COOKIE}=`)) ?? ''
  const attributes = line
    .split(';')
    .slice(1)
    .map((a) => a.trim().toLowerCase())
  return { t, res, attributes, value: sessionFrom(res.headers) ?? '' }
}

it('session cookie attributes: HttpOnly, SameSite=Strict, Path=/console, Secure on https', async () => {
  const https = await signInCookie('https://auth.example.com')
  expect(https.attributes).toEqual(
    expect.arrayContaining(['httponly', 'samesite=strict', 'path=/console', 'secure']),
  )
  // A browser-session cookie: the server ends it after 12 h idle.
  expect(https.attributes.some((a) => a.startsWith('max-age') || a.startsWith('expires'))).toBe(
    false,
  )
  expect(https.value).toMatch(/^[A-Za-z0-9_-]{43}$/)
  // Kept only as a hash.
  const rows = await https.t.db.selectFrom('console_sessions').selectAll().execute()
  expect(JSON.stringify(rows)).not.toContain(https.value)

  const http = await signInCookie('http://localhost:8787')
  expect(http.attributes).toEqual(
    expect.arrayContaining(['httponly', 'samesite=strict', 'path=/console']),
  )
  expect(http.attributes).not.toContain('secure')
})
