import { routes } from '@latchkey/protocol'
import { afterAll, expect, it } from 'vitest'
import { conformingSample, type Hints, HOSTILE_NUMBERS, withOwnKey } from '../test/fuzz.ts'
import { type FuzzRequest, getFuzzInstance, routeName } from '../test/fuzz-server.ts'
import type { RouteDefinition } from './route.ts'

// Issue 20 item 5, the fixed half (fuzz.no-5xx.test.ts is the generated
// one): every route gets the same hostile requests — text that is not JSON,
// JSON that is not an object, prototype keys, deep nesting, a 1 MB body and
// 60 KB fields, each field of a well-formed body swapped for another type,
// other content types, bytes that are not UTF-8, hostile query strings —
// and answers each below 500 with a `{ code, message }` error body, leaving
// no unhandled rejection. With a live session on the routes that need one,
// and without (a few cases), so both sides of authentication are reached.
const f = await getFuzzInstance()
afterAll(() => f.close())

const deep = (depth: number, open: string, close: string, leaf = '1') =>
  open.repeat(depth) + leaf + close.repeat(depth)

/** Bodies that are not a JSON object, or not JSON at all. */
const RAW_BODIES = [
  '',
  ' ',
  '{"a":',
  '{',
  'nul',
  '\u0000',
  "{'email':1}",
  'NaN',
  '{}x',
  '{}{}',
  '\uFEFF{}',
  'null',
  '[]',
  '"a@b.co"',
  '1',
  'true',
  '1e309',
  '-0',
  '{"__proto__":{"isAdmin":true,"polluted":1}}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"a":1,"a":2,"__proto__":null}',
  deep(20_000, '[', ']'),
  deep(6_000, '{"a":', '}'),
  `"${'\\ud800'.repeat(1_000)}"`,
]

/** Bytes that are not UTF-8: an overlong NUL, a lone continuation byte, 0xFF. */
const NOT_UTF8 = new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc0, 0x80, 0xff, 0x22, 0x7d])

/** A field's value in another type: numbers as text, text as numbers, wrong shapes. */
function swapped(value: unknown): unknown[] {
  const out: unknown[] = [null, [], {}, [value], deep(50, '[', ']', '0')]
  if (typeof value === 'number') out.push(String(value), `${value}abc`, value * -1e300)
  else if (typeof value === 'string') out.push(Number(value) || 1, ...HOSTILE_NUMBERS.slice(0, 3))
  else if (typeof value === 'boolean') out.push(String(value), value ? 1 : 0)
  else out.push('x', 1)
  return out
}

const HOSTILE_QUERIES = [
  '%',
  '%ff',
  '%E0%A4%A',
  'a=%00',
  '__proto__=1&constructor=2&prototype=3',
  '__proto__[isAdmin]=1',
  'limit=1&limit=2&limit=x',
  'limit=-1&cursor=..%2F..',
  'limit=1e309&tokenSymbol=%F0%9F%91%A9&app_id=%ED%A0%80',
  `a=${'x'.repeat(60_000)}`,
]

function cases(route: RouteDefinition, hints: Hints): Array<[string, FuzzRequest]> {
  const out: Array<[string, FuzzRequest]> = HOSTILE_QUERIES.map((query) => [
    `query ${query.slice(0, 40)}`,
    { query },
  ])
  if (route.path.includes(':app_id'))
    for (const id of ['%', '..', '__proto__', 'x'.repeat(10_000), '\u0000'])
      out.push([`app id ${id.slice(0, 20)}`, { pathAppId: id }])
  if (route.method === 'get' || !route.body) return out
  const sample = conformingSample(route.body, hints)
  for (const raw of RAW_BODIES) out.push([`raw ${raw.slice(0, 40)}`, { rawBody: raw }])
  out.push(['not UTF-8', { rawBody: NOT_UTF8 }])
  out.push(['1 MB field', { body: { ...sample, email: 'x'.repeat(1 << 20) } }])
  for (const key of ['__proto__', 'constructor', 'prototype'])
    out.push([`${key} key`, { body: withOwnKey({ ...sample }, key, { isAdmin: true }) }])
  for (const [key, value] of Object.entries(sample)) {
    if (typeof value === 'string')
      out.push([`${key}: 60 KB`, { body: { ...sample, [key]: 'é'.repeat(30_000) } }])
    for (const other of swapped(value))
      out.push([
        `${key}: ${JSON.stringify(other).slice(0, 30)}`,
        { body: { ...sample, [key]: other } },
      ])
  }
  const json = JSON.stringify(sample)
  for (const contentType of [
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=utf-16',
    'application/xml',
  ])
    out.push([`content-type ${contentType}`, { rawBody: json, contentType }])
  out.push([
    'form body',
    { rawBody: 'email=a%40b.co&code=123456', contentType: 'application/x-www-form-urlencoded' },
  ])
  out.push(['no content-type', { rawBody: json, contentType: null }])
  return out
}

it('covers every route the server serves', () => {
  expect(f.routes.length).toBeGreaterThan(75)
})

it('the pages beside the API (dev mailbox and outbox, enclave) never answer 5xx', async () => {
  const appIds = ['%00', '__proto__', 'x'.repeat(10_000)]
  const pages = ['/dev/mailbox?to=%00', '/dev/mailbox?to=%ff%', '/dev/outbox?to=%00']
  for (const path of [...pages, ...appIds.map(routes.enclavePage)])
    f.expectHandled(await f.t.request(path, { appId: null }), path.slice(0, 60))
})

for (const route of f.routes) {
  it(`${routeName(route)}: hostile requests never answer 5xx`, async () => {
    const user = route.auth === 'none' ? undefined : await f.login()
    const all = cases(route, user?.hints ?? f.hints)
    for (const [label, request] of all)
      f.expectHandled(
        await f.send(route, { ...request, token: user?.token }),
        `${routeName(route)} ${label}`,
      )
    // Without a session: refused, and still in shape.
    if (user)
      for (const [label, request] of all.slice(0, 12))
        f.expectHandled(await f.send(route, request), `${routeName(route)} ${label}, no session`)
    await new Promise((resolve) => setImmediate(resolve))
    expect(f.takeRejections()).toEqual([])
  })
}
