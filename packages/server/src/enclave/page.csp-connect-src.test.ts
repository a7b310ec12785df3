import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { enclaveExportPagePath } from './export.ts'
import { enclaveCsp } from './page.ts'

// Security bar 43 (tight connect-src): the wallet page may call its own
// origin and exactly the two cloud-recovery API origins (Drive, CloudKit) —
// the provider token lives only there; the export page only its own origin.
let dir: string
let t: TestInstance
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'latchkey-csp-'))
  writeFileSync(join(dir, 'enclave.js'), '')
  writeFileSync(join(dir, 'export.js'), '')
  t = await getTestInstance({
    enclaveBundlePath: join(dir, 'enclave.js'),
    cloudRecovery: {
      google: {
        authorizationUrl: 'http://127.0.0.1:4001/o/oauth2/v2/auth',
        tokenUrl: 'http://127.0.0.1:4001/token',
        apiBaseUrl: 'http://127.0.0.1:4001/',
      },
      icloud: { apiBaseUrl: 'http://127.0.0.1:4002/some/prefix' },
    },
  })
})
afterAll(async () => {
  await t.close()
  rmSync(dir, { recursive: true, force: true })
})

const connectSrc = (csp: string | null) =>
  csp
    ?.split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith('connect-src '))

it('the wallet page connects to itself and the configured API origins only (not the auth or token URLs)', async () => {
  const res = await t.request(routes.enclavePage(t.app.id), { appId: null })
  expect(res.status).toBe(200)
  expect(connectSrc(res.headers.get('content-security-policy'))).toBe(
    "connect-src 'self' http://127.0.0.1:4001 http://127.0.0.1:4002",
  )
})

it('the export page connects to its own origin only', async () => {
  const res = await t.request(enclaveExportPagePath(t.app.id), { appId: null })
  expect(res.status).toBe(200)
  expect(connectSrc(res.headers.get('content-security-policy'))).toBe("connect-src 'self'")
})

it('defaults to the real Google APIs and CloudKit origins', async () => {
  const real = await getTestInstance({ enclaveBundlePath: join(dir, 'enclave.js') })
  try {
    const res = await real.request(routes.enclavePage(real.app.id), { appId: null })
    expect(connectSrc(res.headers.get('content-security-policy'))).toBe(
      "connect-src 'self' https://www.googleapis.com https://api.apple-cloudkit.com",
    )
  } finally {
    await real.close()
  }
})

it('enclaveCsp drops anything that is not an exact origin and repeats nothing', () => {
  expect(
    connectSrc(
      enclaveCsp(
        ['https://app.example'],
        [
          'https://a.example',
          'https://a.example',
          "https://b.example 'unsafe-inline'",
          '*',
          'https://c.example/path',
        ],
      ),
    ),
  ).toBe("connect-src 'self' https://a.example")
  expect(connectSrc(enclaveCsp([]))).toBe("connect-src 'self'")
})
