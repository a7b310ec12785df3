import { randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { defaultRateLimits, loadConfigFromEnv } from '../config.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { ethAddress, hdBody, importBody, recovery, solAddress } from '../test/wallets.ts'

// Tracker issue 15, item 3: every key route — wallet creation and import,
// add, the auth share (signing and export), the recovery material, set
// recovery, the cloud-recovery consents — counts against one budget per
// caller IP, checked after the session (and, on the enclave's routes, its
// proof) and before any share is touched.
const LIMIT = 3
const WINDOW_MS = 10 * 60_000

let t: TestInstance
let token: string
let wallet: ReturnType<typeof hdBody>
beforeAll(async () => {
  t = await getTestInstance({
    trustProxy: true,
    rateLimits: { walletKeyRequestsPerIp: { limit: LIMIT, windowMs: WINDOW_MS } },
  })
  token = (await t.login('keys@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  wallet = hdBody()
  const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token,
    body: wallet,
    headers: from('192.0.2.1'),
  })
  expect(created.status).toBe(200)
})
afterAll(() => t.close())

const from = (ip: string) => ({ 'x-forwarded-for': ip })
const state = () => randomBytes(16).toString('base64url')

const keyRoutes: Array<{ name: string; path: string; body: () => object }> = [
  { name: 'wallet creation', path: routes.embeddedWalletsCreate, body: () => hdBody() },
  { name: 'import', path: routes.embeddedWalletsCreate, body: () => importBody() },
  {
    name: 'add wallet',
    path: routes.embeddedWalletsAdd,
    body: () => ({
      entropy_id: wallet.entropy_id,
      chain_type: 'solana',
      address: solAddress(),
      wallet_index: 7,
    }),
  },
  {
    name: 'auth share (signing, export)',
    path: routes.embeddedWalletsAuthShare,
    body: () => ({ entropy_id: wallet.entropy_id }),
  },
  {
    name: 'recovery material',
    path: routes.embeddedWalletsRecovery,
    body: () => ({ entropy_id: wallet.entropy_id }),
  },
  {
    name: 'set recovery',
    path: routes.embeddedWalletsSetRecovery,
    body: () => ({ entropy_id: wallet.entropy_id, recovery: recovery('latchkey') }),
  },
  {
    name: 'Google Drive consent',
    path: routes.recoveryOAuthInit,
    body: () => ({
      provider: 'google-drive',
      redirect_to: `${TEST_ORIGIN}/wallet`,
      code_challenge: randomBytes(32).toString('base64url'),
      state_code: state(),
    }),
  },
  {
    name: 'iCloud consent',
    path: routes.recoveryOAuthInitIcloud,
    body: () => ({ client_type: 'web', redirect_to: `${TEST_ORIGIN}/wallet`, state_code: state() }),
  },
  {
    name: 'cloud consent exchange',
    path: routes.recoveryOAuthAuthenticate,
    body: () => ({
      provider: 'google-drive',
      authorization_code: 'code',
      state_code: state(),
      code_verifier: randomBytes(32).toString('base64url'),
    }),
  },
]

describe.each(
  keyRoutes.map((route, i) => ({
    ...route,
    ip: `198.51.100.${i + 1}`,
    otherIp: `198.51.100.${i + 101}`,
  })),
)('$name', ({ path, body, ip, otherIp }) => {
  it(`${LIMIT} calls from one IP get an answer, the next is 429 TOO_MANY_REQUESTS; another IP is unaffected`, async () => {
    const call = (from_ip: string) =>
      t.enclaveRequest(path, { token, body: body(), headers: from(from_ip) })
    for (let i = 0; i < LIMIT; i++) expect((await call(ip)).status).not.toBe(429)
    expect(await call(ip)).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
    expect((await call(otherIp)).status).not.toBe(429)
  })
})

describe('one budget per IP', () => {
  it('is shared by every key route and every app, and a refused call releases nothing', async () => {
    const ip = '203.0.113.50'
    const other = await t.createApp()
    const stranger =
      (await t.login('stranger@example.com', { appId: other.id, enclaveKey: t.enclaveKey }))
        .token ?? ''
    const ask = (path: string) =>
      t.enclaveRequest(path, { token, body: { entropy_id: wallet.entropy_id }, headers: from(ip) })
    expect((await ask(routes.embeddedWalletsAuthShare)).status).toBe(200)
    expect((await ask(routes.embeddedWalletsRecovery)).status).toBe(200)
    const elsewhere = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
      token: stranger,
      appId: other.id,
      body: { entropy_id: ethAddress() },
      headers: from(ip),
    })
    expect(elsewhere.body.code).toBe('WALLET_NOT_FOUND')
    const refused = await ask(routes.embeddedWalletsAuthShare)
    expect(refused).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
    expect(JSON.stringify(refused.body)).not.toContain(wallet.auth_share)
  })

  it('holds under a concurrent burst: exactly the cap is served', async () => {
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.enclaveRequest(routes.embeddedWalletsAuthShare, {
          token,
          body: { entropy_id: wallet.entropy_id },
          headers: from('203.0.113.51'),
        }),
      ),
    )
    expect(results.filter((r) => r.status === 200)).toHaveLength(LIMIT)
    expect(results.filter((r) => r.body.code === 'TOO_MANY_REQUESTS')).toHaveLength(10 - LIMIT)
  })

  it('the window reopens after windowMs, not before', async () => {
    const ip = '203.0.113.53'
    const ask = () =>
      t.enclaveRequest(routes.embeddedWalletsAuthShare, {
        token,
        body: { entropy_id: wallet.entropy_id },
        headers: from(ip),
      })
    for (let i = 0; i < LIMIT; i++) expect((await ask()).status).toBe(200)
    t.clock.advance(WINDOW_MS - 1)
    expect((await ask()).status).toBe(429)
    t.clock.advance(1)
    expect((await ask()).status).toBe(200)
  })

  it('a call without a valid session is refused before it is counted', async () => {
    const ip = '203.0.113.52'
    for (let i = 0; i < LIMIT + 2; i++) {
      const res = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
        token: 'not-a-jwt',
        body: { entropy_id: wallet.entropy_id },
        headers: from(ip),
      })
      expect(res.status).toBe(401)
    }
    const owner = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
      token,
      body: { entropy_id: wallet.entropy_id },
      headers: from(ip),
    })
    expect(owner.status).toBe(200)
  })
})

describe('configuration', () => {
  it('defaults to 600 key requests per IP per 10 minutes', () => {
    expect(defaultRateLimits.walletKeyRequestsPerIp).toEqual({ limit: 600, windowMs: 10 * 60_000 })
  })

  it('LATCHKEY_RATE_WALLET_KEY_REQUESTS_PER_IP sets the cap per 10 minutes', () => {
    expect(
      loadConfigFromEnv({ LATCHKEY_RATE_WALLET_KEY_REQUESTS_PER_IP: '50' }).rateLimits
        ?.walletKeyRequestsPerIp,
    ).toEqual({ limit: 50, windowMs: 10 * 60_000 })
  })
})
