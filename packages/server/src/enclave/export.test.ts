import { createHash } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { EXPORT_SCRIPT_PATH, enclaveExportPagePath, exportPageHtml } from './export.ts'

const BUNDLE = 'console.log("export")\n'
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
  dir = mkdtempSync(join(tmpdir(), 'latchkey-export-'))
  writeFileSync(join(dir, 'export.js'), BUNDLE)
  // The server serves export.js from beside the enclave bundle.
  t = await getTestInstance({ enclaveBundlePath: join(dir, 'enclave.js') })
})
afterAll(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

describe('GET /apps/:appId/embedded-wallets/export', () => {
  it('is framable by exactly the app origins, under the wallet page CSP (security bar 43, 44)', async () => {
    const app = await t.createApp({}, ['https://app.example.com', 'http://localhost:5173'])
    const res = await t.request(enclaveExportPagePath(app.id), { appId: null })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^text\/html/)
    expect(res.headers.get('content-security-policy')).toBe(
      "default-src 'none'; script-src 'self'; connect-src 'self'; " +
        'frame-ancestors https://app.example.com http://localhost:5173; ' +
        "base-uri 'none'; form-action 'none'",
    )
    expect(res.headers.get('x-frame-options')).toBeNull()
    expect(res.headers.get('x-content-type-options')).toBe('nosniff')
    expect(res.headers.get('referrer-policy')).toBe('no-referrer')
    expect(res.headers.get('cache-control')).toBe('no-store')
    expect(configOf(res.body)).toEqual({
      appId: app.id,
      origins: ['https://app.example.com', 'http://localhost:5173'],
    })
  })

  it('loads /apps/export.js with SRI and runs nothing inline', async () => {
    const res = await t.request(enclaveExportPagePath(t.app.id), { appId: null })
    const integrity = `sha384-${createHash('sha384').update(BUNDLE).digest('base64')}`
    expect(res.body).toContain(
      `<script type="module" src="${EXPORT_SCRIPT_PATH}" integrity="${integrity}"></script>`,
    )
    const scripts = [...String(res.body).matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)]
    expect(scripts).toHaveLength(2)
    for (const [, attrs, body] of scripts)
      expect(attrs?.includes('type="application/json"') || body === '').toBe(true)
    expect(String(res.body)).not.toMatch(/<style|\sstyle=|\son[a-z]+=/i)
    expect(directive(res.headers.get('content-security-policy'), 'frame-ancestors')).toBe(
      `frame-ancestors ${TEST_ORIGIN}`,
    )
  })

  it('answers 404 for an unknown or malformed app id, unframable', async () => {
    for (const id of ['zzzzzzzzzzzzzzzzzzzzzzzzz', 'not-an-id', '%3Cscript%3E']) {
      const res = await t.request(enclaveExportPagePath(id), { appId: null })
      expect(res.status).toBe(404)
      expect(res.body).toMatchObject({ code: 'APP_NOT_FOUND' })
      expect(directive(res.headers.get('content-security-policy'), 'frame-ancestors')).toBe(
        "frame-ancestors 'none'",
      )
      expect(res.headers.get('x-frame-options')).toBe('DENY')
    }
  })

  it('escapes the inlined config and drops non-origins from the CSP', async () => {
    const app = await t.createApp({}, ['https://ok.example'])
    await t.db
      .updateTable('apps')
      .set({
        allowed_origins: JSON.stringify([
          'https://ok.example',
          'https://x.example</script><script>alert(1)</script>',
          "https://y.example; script-src 'unsafe-inline'",
          '*',
        ]),
      })
      .where('id', '=', app.id)
      .execute()
    t.server.services.apps.invalidate()
    const res = await t.request(enclaveExportPagePath(app.id), { appId: null })
    expect(res.status).toBe(200)
    const html = String(res.body)
    expect(html).not.toContain('alert(1)</script>')
    expect(html.match(/<\/script>/g)).toHaveLength(2)
    expect(configOf(html)).toEqual({ appId: app.id, origins: ['https://ok.example'] })
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline')
    expect(directive(res.headers.get('content-security-policy'), 'frame-ancestors')).toBe(
      'frame-ancestors https://ok.example',
    )
    // Direct: a hostile config value cannot end the block either.
    const direct = exportPageHtml({ appId: app.id, origins: ['</script><!--'] })
    expect(direct.match(/<\/script>/g)).toHaveLength(2)
    expect(configOf(direct)).toEqual({ appId: app.id, origins: ['</script><!--'] })
  })

  it("has frame-ancestors 'none' when the app allows no origin", async () => {
    const app = await t.createApp({}, [])
    const res = await t.request(enclaveExportPagePath(app.id), { appId: null })
    expect(directive(res.headers.get('content-security-policy'), 'frame-ancestors')).toBe(
      "frame-ancestors 'none'",
    )
  })

  it('does not shadow the wallet page route', async () => {
    const res = await t.request(`/apps/${t.app.id}/embedded-wallets`, { appId: null })
    expect(String(res.body)).not.toContain(EXPORT_SCRIPT_PATH)
  })
})

describe('GET /apps/export.js', () => {
  it('serves the built bundle as JavaScript, with an ETag', async () => {
    const res = await t.request(EXPORT_SCRIPT_PATH, { appId: null })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8')
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin')
    expect(res.body).toBe(BUNDLE)
    const etag = res.headers.get('etag') as string
    expect(etag).toMatch(/^"[\w-]{27}"$/)
    const again = await t.request(EXPORT_SCRIPT_PATH, {
      appId: null,
      headers: { 'if-none-match': etag },
    })
    expect(again.status).toBe(304)
  })

  it('answers 503 JSON while the bundle is not built', async () => {
    const missing = mkdtempSync(join(tmpdir(), 'latchkey-export-missing-'))
    const other = await getTestInstance({ enclaveBundlePath: join(missing, 'enclave.js') })
    try {
      for (const path of [EXPORT_SCRIPT_PATH, enclaveExportPagePath(other.app.id)]) {
        const res = await other.request(path, { appId: null })
        expect(res.status).toBe(503)
        expect(res.headers.get('cache-control')).toBe('no-store')
        expect(res.body).toMatchObject({ code: 'WALLET_PROXY_UNAVAILABLE' })
      }
    } finally {
      await other.close()
      rmSync(missing, { recursive: true, force: true })
    }
  })
})
