import { Header, routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { type Listening, listen, sendRaw } from '../test/listen.ts'
import { resolveOwnOrigins } from './own-origins.ts'

// The Origin check compares with the app's allowed origins and the server's
// own origins from configuration (the public URL, or the loopback names on
// the listening port), never with the request's Host or X-Forwarded-Host:
// those are what a DNS-rebound page at evil.test writes (docs/security.md,
// "Origin checks never trust the Host header"). Over a real socket, where
// @hono/node-server builds the request URL from the Host header or the
// request line.

/** A raw request for the app config of `appId`, with `lines` as its headers. */
const request = (appId: string, lines: string[], target = routes.appConfig(appId)) =>
  `GET ${target} HTTP/1.1\r\n${[...lines, 'Connection: close'].join('\r\n')}\r\n\r\n`

describe('with a public URL (http://latchkey.test)', () => {
  let t: TestInstance
  let http: Listening
  beforeAll(async () => {
    t = await getTestInstance()
    http = await listen(t.server.app.fetch)
  })
  afterAll(async () => {
    await http?.close()
    await t?.close()
  })

  const refused: Array<[string, (port: number, appId: string) => string]> = [
    [
      'Host: evil.test, Origin: http://evil.test',
      (_, id) => request(id, ['Host: evil.test', 'Origin: http://evil.test']),
    ],
    ['Host in mixed case', (_, id) => request(id, ['Host: EVIL.Test', 'Origin: http://evil.test'])],
    [
      'Host with a trailing dot',
      (_, id) => request(id, ['Host: evil.test.', 'Origin: http://evil.test.']),
    ],
    [
      'Host with a port',
      (_, id) => request(id, ['Host: evil.test:8080', 'Origin: http://evil.test:8080']),
    ],
    [
      'Host with the default port',
      (_, id) => request(id, ['Host: evil.test:80', 'Origin: http://evil.test']),
    ],
    [
      'X-Forwarded-Host and X-Forwarded-Proto',
      (port, id) =>
        request(id, [
          `Host: 127.0.0.1:${port}`,
          'X-Forwarded-Host: evil.test',
          'X-Forwarded-Proto: https',
          'Origin: https://evil.test',
        ]),
    ],
    [
      'an absolute request target',
      (_, id) =>
        request(
          id,
          ['Host: evil.test', 'Origin: http://evil.test'],
          `http://evil.test${routes.appConfig(id)}`,
        ),
    ],
    [
      'the listening address, which is not the public URL',
      (port, id) => request(id, [`Host: 127.0.0.1:${port}`, `Origin: http://127.0.0.1:${port}`]),
    ],
    [
      'our public host in the Host header only',
      (_, id) => request(id, ['Host: latchkey.test', 'Origin: http://evil.test']),
    ],
    ...[
      'http://LATCHKEY.test',
      'http://latchkey.test.',
      'http://latchkey.test:80',
      'https://latchkey.test',
    ].map((origin): [string, (port: number, appId: string) => string] => [
      `an Origin no browser sends for the public URL: ${origin}`,
      (_, id) => request(id, ['Host: latchkey.test', `Origin: ${origin}`]),
    ]),
  ]

  for (const [name, make] of refused)
    it(`refuses ${name} (403 ORIGIN_NOT_ALLOWED)`, async () => {
      const answer = await sendRaw(http.port, make(http.port, t.app.id))
      expect(answer.status).toBe(403)
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' })
      expect(answer.headers['access-control-allow-origin']).toBeUndefined()
    })

  it('writes nothing for the attack request on a POST route', async () => {
    const before = await t.countRows('otp_codes')
    const body = JSON.stringify({ email: 'rebound@example.com' })
    const answer = await sendRaw(
      http.port,
      `POST ${routes.emailInit} HTTP/1.1\r\nHost: evil.test\r\nOrigin: http://evil.test\r\n` +
        `${Header.appId}: ${t.app.id}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    )
    expect(answer.status).toBe(403)
    expect(await t.countRows('otp_codes')).toBe(before)
  })

  it('accepts the public origin whatever the Host, the app origins, and calls without Origin', async () => {
    for (const lines of [
      ['Host: evil.test', 'Origin: http://latchkey.test'],
      ['Host: evil.test', `Origin: ${TEST_ORIGIN}`],
      ['Host: evil.test'],
    ]) {
      const answer = await sendRaw(http.port, request(t.app.id, lines))
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.body).id).toBe(t.app.id)
    }
  })
})

describe('without a public URL (development)', () => {
  let t: TestInstance
  let http: Listening
  beforeAll(async () => {
    // Listening first, as startServer does, so the server knows its port.
    http = await listen((req, env) => t.server.app.fetch(req, env))
    t = await getTestInstance({ publicUrl: undefined, port: http.port })
  })
  afterAll(async () => {
    await http?.close()
    await t?.close()
  })

  it('accepts the loopback names on the listening port', async () => {
    const { port } = http
    for (const origin of [
      `http://localhost:${port}`,
      `http://127.0.0.1:${port}`,
      `http://[::1]:${port}`,
    ]) {
      const answer = await sendRaw(
        port,
        request(t.app.id, [`Host: 127.0.0.1:${port}`, `Origin: ${origin}`]),
      )
      expect(answer.status, origin).toBe(200)
    }
  })

  it('refuses a rebound name on the listening port, and loopback on another port', async () => {
    const { port } = http
    for (const [host, origin] of [
      [`evil.test:${port}`, `http://evil.test:${port}`],
      [`EVIL.test:${port}`, `http://evil.test:${port}`],
      [`127.0.0.1:${port + 1}`, `http://127.0.0.1:${port + 1}`],
      [`localhost:${port}`, `https://localhost:${port}`],
    ]) {
      const answer = await sendRaw(port, request(t.app.id, [`Host: ${host}`, `Origin: ${origin}`]))
      expect(answer.status, origin).toBe(403)
      expect(JSON.parse(answer.body)).toMatchObject({ code: 'ORIGIN_NOT_ALLOWED' })
    }
  })
})

it('takes our own origin from the configured public URL only', () => {
  expect(resolveOwnOrigins('https://Auth.Example.com:443/latchkey/', 8787)).toEqual([
    'https://auth.example.com',
  ])
  expect(resolveOwnOrigins(undefined, 8787)).toEqual([
    'http://localhost:8787',
    'http://127.0.0.1:8787',
    'http://[::1]:8787',
  ])
  // Their origin would be "null", which sandboxed frames send.
  expect(() => resolveOwnOrigins('data:text/html,x', 8787)).toThrow(/http\(s\)/)
  expect(() => resolveOwnOrigins('latchkey.test', 8787)).toThrow(/not a URL/)
})
