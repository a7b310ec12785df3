import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { ENCLAVE_SCRIPT_PATH, enclaveCsp, jsonForScriptBlock, safeFrameOrigins } from './page.ts'

const BUNDLE = 'console.log("enclave")\n'
let t: TestInstance
let dir: string

function configOf(html: string): unknown {
  const match = html.match(
    /<script type="application\/json" id="latchkey-enclave-config">([\s\S]*?)<\/script>/,
  )
  if (!match?.[1]) throw new Error('no config block')
  return JSON.parse(match[1])
}

function directive(csp: string | null, name: string): string | undefined {
  return csp
    ?.split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `))
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'latchkey-enclave-'))
  writeFileSync(join(dir, 'enclave.js'), BUNDLE)
  t = await getTestInstance({ enclaveBundlePath: join(dir, 'enclave.js') })
})
afterAll(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('GET /apps/:appId/embedded-wallets', () => {
  it('serves the page with frame-ancestors exactly the app origins and a strict CSP (security bar 43)', async () => {
    const app = await t.createApp({}, ['https://app.example.com', 'http://localhost:5173'])
    const res = await t.request(routes.enclavePage(app.id), { appId: null })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    const csp = res.headers.get('content-security-policy')
    expect(csp).toBe(
      "default-src 'none'; script-src 'self'; " +
        "connect-src 'self' https://www.googleapis.com https://api.apple-cloudkit.com; " +
        'frame-ancestors https://app.example.com http://localhost:5173; ' +
        "base-uri 'none'; form-action 'none'",
    )
    expect(directive(csp, 'frame-ancestors')).toBe(
      'frame-ancestors https://app.example.com http://localhost:5173',
    )
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(configOf(res.body)).toEqual({
      appId: app.id,
      origins: ['https://app.example.com', 'http://localhost:5173'],
    })
  })

  it('loads one same-origin module script with SRI, and runs nothing inline', async () => {
    const res = await t.request(routes.enclavePage(t.app.id), { appId: null })
    const integrity = `sha384-${createHash('sha384').update(BUNDLE).digest('base64')}`
    expect(res.body).toContain(
      `<script type="module" src="${ENCLAVE_SCRIPT_PATH}" integrity="${integrity}"></script>`,
    )
    const scripts = [...String(res.body).matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts).toHaveLength(2)
    for (const [, attrs, body] of scripts)
      expect(attrs?.includes('type="application/json"') || body === '').toBe(true)
    expect(directive(res.headers.get('content-security-policy'), 'frame-ancestors')).toBe(
      `frame-ancestors ${TEST_ORIGIN}`,
    )
  })

  // The global securityHeaders middleware in server.ts sets X-Frame-Options: DENY on every
  // answer; the lead's one-line change there (see the report) lifts it for this page.
  it('sends no X-Frame-Options DENY (the app must be able to frame it)', async () => {
    const res = await t.request(routes.enclavePage(t.app.id), { appId: null })
    expect(res.headers.get('x-frame-options')).toBeNull()
  })

  it('answers 404 for an unknown or malformed app id', async () => {
    for (const id of ['zzzzzzzzzzzzzzzzzzzzzzzzz', 'not-an-id', '%3Cscript%3E']) {
      const res = await t.request(routes.enclavePage(id), { appId: null })
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ code: 'APP_NOT_FOUND' })
      expect(directive(res.headers.get('content-security-policy'), 'frame-ancestors')).toBe(
        "frame-ancestors 'none'",
      )
    }
  })

  it('cannot be broken out of by </script> in stored origins, and drops non-origins from the CSP', async () => {
    const app = await t.createApp({}, ['https://ok.example'])
    const hostile = [
      'https://ok.example',
      'https://x.example</script><script>alert(1)</script>',
      "https://y.example; script-src 'unsafe-inline'",
      '*',
    ]
    await t.db
      .updateTable('apps')
      .set({ name: '</script><script>alert(1)</script>', allowed_origins: JSON.stringify(hostile) })
      .where('id', '=', app.id)
      .execute()
    t.server.services.apps.invalidate()
    const res = await t.request(routes.enclavePage(app.id), { appId: null })
    expect(res.status).toBe(200)
    const html = String(res.body)
    expect(html).not.toContain('alert(1)</script>')
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(configOf(html)).toEqual({ appId: app.id, origins: ['https://ok.example'] })
    expect(directive(res.headers.get('content-security-policy'), 'frame-ancestors')).toBe(
      'frame-ancestors https://ok.example',
    )
  })

  it("has frame-ancestors 'none' when the app allows no origin", async () => {
    const app = await t.createApp({}, [])
    const res = await t.request(routes.enclavePage(app.id), { appId: null })
    expect(directive(res.headers.get('content-security-policy'), 'frame-ancestors')).toBe(
      "frame-ancestors 'none'",
    )
  })
})

describe('GET /apps/enclave.js', () => {
  it('serves the built bundle as JavaScript, with an ETag', async () => {
    const res = await t.request(ENCLAVE_SCRIPT_PATH, { appId: null })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.body).toBe(BUNDLE)
    const etag = res.headers.get('etag') as string
    const again = await t.request(ENCLAVE_SCRIPT_PATH, {
      appId: null,
      headers: { 'if-none-match': etag },
    })
    expect(again.status).toBe(304)
  })

  it('answers 503 JSON while the bundle is not built', async () => {
    const other = await getTestInstance({ enclaveBundlePath: join(dir, 'missing.js') })
    try {
      for (const path of [ENCLAVE_SCRIPT_PATH, routes.enclavePage(other.app.id)]) {
        const res = await other.request(path, { appId: null })
        expect(res.status).toBe(503)
        expect(res.body).toMatchObject({ code: 'WALLET_PROXY_UNAVAILABLE' })
      }
    } finally {
      await other.close()
    }
  })
})

describe('helpers', () => {
  it('jsonForScriptBlock escapes what could end a script block and round-trips', () => {
    const value = { a: '</script><!-- & \u2028\u2029 >' }
    const text = jsonForScriptBlock(value)
    expect(text).not.toMatch(/[<>&\u2028\u2029]/)
    expect(JSON.parse(text)).toEqual(value)
  })

  it('safeFrameOrigins keeps exact origins only', () => {
    expect(
      safeFrameOrigins([
        'https://a.example',
        'http://localhost:3000',
        'http://[::1]:8080',
        'https://a.example/',
        'https://*.example',
        "https://a.example 'unsafe-inline'",
        'javascript:alert(1)',
        'https://a.example',
      ]),
    ).toEqual(['https://a.example', 'http://localhost:3000', 'http://[::1]:8080'])
    expect(enclaveCsp([])).toContain("frame-ancestors 'none'")
  })
})
