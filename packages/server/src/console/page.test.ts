import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Hono } from 'hono'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { HonoEnv } from '../http/context.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { CONSOLE_CSP, registerConsole } from './page.ts'

let t: TestInstance
const built = mkdtempSync(join(tmpdir(), 'latchkey-console-'))
const empty = mkdtempSync(join(tmpdir(), 'latchkey-console-none-'))
beforeAll(async () => {
  t = await getTestInstance()
  mkdirSync(join(built, 'assets'))
  writeFileSync(
    join(built, 'index.html'),
    '<!doctype html><script type="module" src="/console/assets/index-a1.js"></script>',
  )
  writeFileSync(join(built, 'assets', 'index-a1.js'), 'console.log(1)')
})
afterAll(async () => {
  await t.close()
  rmSync(built, { recursive: true, force: true })
  rmSync(empty, { recursive: true, force: true })
})

const serve = (dir: string) => {
  const hono = new Hono<HonoEnv>()
  registerConsole(hono, t.server.services, { dir })
  return hono
}

it('serves the page at /console and every screen path, under a CSP of its own origin only', async () => {
  const hono = serve(built)
  for (const path of ['/console', '/console/', `/console/apps/${t.app.id}/users`]) {
    const res = await hono.request(path)
    expect(res.status, path).toBe(200)
    expect(res.headers.get('content-security-policy')).toBe(CONSOLE_CSP)
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(await res.text()).toContain('/console/assets/index-a1.js')
  }
  const script = await hono.request('/console/assets/index-a1.js')
  expect(script.headers.get('content-type')).toContain('text/javascript')
  expect(await script.text()).toBe('console.log(1)')
  for (const path of ['/console/assets/missing.js', '/console/assets/index.html'])
    expect((await hono.request(path)).status, path).toBe(404)
  // No file outside assets/: an encoded slash is no asset name, only the page.
  const traversal = await hono.request('/console/assets/..%2F..%2Fpackage.json')
  expect(traversal.headers.get('content-type')).toContain('text/html')
})

it('the API is never the page: an unknown console API path is 401 without a session', async () => {
  // The server as created (its error handler renders the refusal).
  const res = await t.server.app.request('/console/api/nothing')
  expect(res.status).toBe(401)
})

it('says how to build it when it is not built', async () => {
  const res = await serve(empty).request('/console')
  expect(res.status).toBe(503)
  expect((await res.json()).message).toContain('npm run build:console')
})
