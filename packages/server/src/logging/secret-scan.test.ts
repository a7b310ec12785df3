import { randomBytes } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { findSecretsInLog } from './secret-scan.ts'

// The e2e log check (e2e/log-check.ts) is only worth something if it catches
// what it looks for: each secret planted in an otherwise clean log is found,
// on its line, and clean lines pass.
const line = (fields: Record<string, unknown>) =>
  JSON.stringify({ level: 'info', time: '2030-01-01T00:00:00.000Z', pid: 123456, ...fields })
const access = line({
  request_id: 'f2c6e8c9-8812-4d8f-84fc-adbc58d7a5e8',
  method: 'POST',
  route: '/api/v1/passwordless/authenticate',
  status: 200,
  duration_ms: 31.4,
  app_id: 'e2eappaaaaaaaaaaaaaaaaaaa',
  msg: 'request',
})
const clean = [
  access,
  line({ msg: 'refresh token reuse detected; session revoked (app e2eappaaaaaaaaaaaaaaaaaaa)' }),
  line({ msg: 'unhandled error: TypeError: x is not a function', route: '/api/v1/users/me' }),
].join('\n')
const jwt =
  'eyJhbGciOiJFUzI1NiIsInR5cCI6ImF0K2p3dCJ9.eyJzdWIiOiJ1c3IiLCJzaWQiOiJzZXMifQ.c2lnbmF0dXJl'

const leakIn = (planted: string, known = {}) =>
  findSecretsInLog(`${clean}\n${planted}\n${access}`, known)

describe('findSecretsInLog', () => {
  it('passes a clean log, request ids, app ids, pids and timestamps included', () => {
    expect(findSecretsInLog(clean, { codes: ['123456', '000000'] })).toEqual([])
  })

  it('finds a JWT, a refresh token, a share and a TOTP secret by their shape', () => {
    const refresh = randomBytes(32).toString('base64url')
    const share = randomBytes(33).toString('base64url')
    for (const [planted, kind] of [
      [line({ msg: `authorization: Bearer ${jwt}` }), 'jwt'],
      [line({ msg: 'refresh', detail: refresh }), 'refresh-token-or-share'],
      [line({ msg: `share ${share} released` }), 'refresh-token-or-share'],
      [line({ msg: 'totp', detail: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP' }), 'totp-secret'],
    ] as const)
      expect(leakIn(planted)).toEqual([{ line: 4, kind, text: planted }])
  })

  it('finds a delivered code as a whole number, but not inside a longer one', () => {
    const planted = line({ msg: 'email authenticate failed for code 482913' })
    expect(leakIn(planted, { codes: ['482913'] })).toMatchObject([{ line: 4, kind: 'code' }])
    expect(leakIn(line({ msg: 'order 94829130' }), { codes: ['482913'] })).toEqual([])
  })

  it('does not take hex digits of an id for a code', () => {
    const codes = { codes: ['302915'] }
    const ids = line({ request_id: '1f302915-42e9-44a4-a2f6-46ff56442b6b', msg: 'request' })
    expect(leakIn(ids, codes)).toEqual([])
    expect(leakIn(line({ msg: 'wallet a302915b' }), codes)).toEqual([])
    expect(leakIn(line({ msg: 'code=302915' }), codes)).toMatchObject([{ kind: 'code' }])
  })

  it('finds any other known value', () => {
    const planted = line({ msg: 'client secret GOCSPX-e2e-client-secret' })
    expect(leakIn(planted, { secrets: ['GOCSPX-e2e-client-secret'] })).toMatchObject([
      { line: 4, kind: 'secret' },
    ])
  })

  it('lets the dev mailbox print its codes, and nothing else', () => {
    const dev = line({ msg: '[dev mailbox] to a@b.co: 482913 — Your login code' })
    expect(leakIn(dev, { codes: ['482913'] })).toEqual([])
    const devWithToken = line({ msg: `[dev mailbox] to a@b.co: ${jwt}` })
    expect(leakIn(devWithToken)).toMatchObject([{ kind: 'jwt' }])
  })
})
