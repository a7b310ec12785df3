import { ENCLAVE_PROOF_MAX_SKEW_S, routes, SIGN_IN_NONCE_TTL_MS } from '@latchkey/protocol'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Logger } from '../config.ts'
import { sha256 } from '../ids.ts'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import { purgeExpired } from './purge.ts'

// Tracker issue 15, item 9: expired rows are purged, and a row still valid never is.
const DAY = 24 * 60 * 60_000
let t: TestInstance
let userId: string
beforeAll(async () => {
  t = await getTestInstance({ purgeIntervalMs: 0 })
  userId = (await t.login('purge-owner@example.com')).user.id
})
afterAll(() => t.close())

const refresh = (token: string) =>
  t.request(routes.sessionRefresh, { body: { refresh_token: token } })

/** One row in every table with an `expires_at`, named by `tag`. */
async function seed(tag: string, expiresAt: number) {
  const app_id = t.app.id
  const created_at = expiresAt - 60_000
  const used_at = null
  const { db } = t
  await db
    .insertInto('otp_codes')
    .values({
      id: tag,
      app_id,
      channel: 'email',
      identifier: `${tag}@example.com`,
      code_hash: tag,
      expires_at: expiresAt,
      attempts: 0,
      consumed_at: null,
      created_at,
    })
    .execute()
  await db
    .insertInto('sign_in_nonces')
    .values({
      nonce: tag,
      app_id,
      chain_type: 'ethereum',
      address: '0x0',
      sign_in_input: null,
      created_at,
      expires_at: expiresAt,
      used_at,
    })
    .execute()
  await db
    .insertInto('oauth_login_states')
    .values({
      state_hash: tag,
      app_id,
      user_id: null,
      provider: 'google',
      intent: 'login',
      redirect_to: 'http://app.test/',
      code_challenge: tag,
      created_at,
      expires_at: expiresAt,
      used_at,
    })
    .execute()
  await db
    .insertInto('recovery_oauth_states')
    .values({
      state_hash: tag,
      app_id,
      user_id: userId,
      provider: 'google-drive',
      redirect_to: 'http://app.test/',
      code_challenge: null,
      created_at,
      expires_at: expiresAt,
      used_at,
    })
    .execute()
  // Kept SIGN_IN_NONCE_TTL_MS past expiry (a late poll hears "timed out"): gone at `expiresAt`.
  await db
    .insertInto('farcaster_channels')
    .values({
      channel_token_hash: tag,
      app_id,
      nonce: tag,
      domain: 'app.test',
      siwe_uri: 'http://app.test/',
      created_at,
      expires_at: expiresAt - SIGN_IN_NONCE_TTL_MS,
      used_at,
    })
    .execute()
  await db
    .insertInto('passkey_challenges')
    .values({
      challenge: tag,
      app_id,
      purpose: 'authenticate',
      user_id: null,
      rp_id: 'app.test',
      origin: 'http://app.test',
      webauthn_user_id: null,
      created_at,
      expires_at: expiresAt,
      used_at,
    })
    .execute()
  await db
    .insertInto('captcha_tokens')
    .values({ token_hash: tag, app_id, created_at, expires_at: expiresAt })
    .execute()
  // Kept 5 minutes past expiry, as auth/telegram/payloads.ts keeps them: gone at `expiresAt`.
  await db
    .insertInto('telegram_payloads')
    .values({ payload_hash: tag, app_id, created_at, expires_at: expiresAt - 5 * 60_000 })
    .execute()
  await db
    .insertInto('account_transfers')
    .values({
      nonce_hash: tag,
      app_id,
      user_id: userId,
      from_user_id: userId,
      account_type: 'email',
      identifier: `${tag}@example.com`,
      data: '{}',
      created_at,
      expires_at: expiresAt,
      used_at,
    })
    .execute()
  // Kept 5 minutes past expiry, as maintenance/purge.ts keeps them: gone at `expiresAt`.
  await db
    .insertInto('enclave_proof_jtis')
    .values({ jti_hash: tag, expires_at: expiresAt - 5 * 60_000 })
    .execute()
  // MFA rows belong to a user (and a verification to a live session) of their own.
  const user_id = `user-${tag}`
  const session_id = `session-${tag}`
  await db
    .insertInto('users')
    .values({ id: user_id, app_id, created_at, has_accepted_terms: 0, is_guest: 0 })
    .execute()
  await db
    .insertInto('sessions')
    .values({
      id: session_id,
      app_id,
      user_id,
      created_at,
      last_used_at: expiresAt,
      expires_at: expiresAt + DAY,
      revoked_at: null,
      enclave_jkt: null,
    })
    .execute()
  await db
    .insertInto('mfa_factors')
    .values({
      id: tag,
      app_id,
      user_id,
      method: 'totp',
      secret: null,
      enabled: 0,
      last_used_step: null,
      created_at,
      enabled_at: null,
      expires_at: expiresAt,
    })
    .execute()
  await db
    .insertInto('mfa_verifications')
    .values({ session_id, user_id, method: 'totp', verified_at: created_at, expires_at: expiresAt })
    .execute()
  await db
    .insertInto('mfa_attempts')
    .values({ user_id, attempts: 5, expires_at: expiresAt })
    .execute()
  // A cooldown "expires" when the next send is allowed: sent_at + 30 s.
  await db
    .insertInto('otp_send_cooldowns')
    .values({ app_id, channel: 'email', identifier: tag, sent_at: expiresAt - 30_000 })
    .execute()
}

const EXPIRING = [
  'otp_codes',
  'sign_in_nonces',
  'oauth_login_states',
  'recovery_oauth_states',
  'farcaster_channels',
  'passkey_challenges',
  'captcha_tokens',
  'telegram_payloads',
  'account_transfers',
  'enclave_proof_jtis',
  'mfa_factors',
  'mfa_verifications',
  'mfa_attempts',
  'otp_send_cooldowns',
] as const

it('deletes codes, nonces, states, challenges, spent proofs, MFA setups, verifications and attempt windows, and cooldowns at their expiry, not a millisecond before', async () => {
  const now = t.clock.now() + DAY
  await purgeExpired(t.db, now - 1) // the login's code and cooldown
  await seed('expired', now)
  await seed('valid', now + 1)
  const before = Object.fromEntries(
    await Promise.all(EXPIRING.map(async (table) => [table, await t.countRows(table)])),
  )

  const counts = await purgeExpired(t.db, now, { batchSize: 1 })

  for (const table of EXPIRING) {
    expect({ table, deleted: counts[table] }).toEqual({ table, deleted: 1 })
    expect(await t.countRows(table)).toBe(before[table] - 1)
  }
  expect(
    await t.db.selectFrom('otp_codes').select('id').where('id', '=', 'valid').execute(),
  ).toHaveLength(1)
  expect(await purgeExpired(t.db, now)).toMatchObject({ otp_codes: 0, account_transfers: 0 })
})

it('an enabled MFA factor has no expiry and is never purged', async () => {
  await t.db
    .insertInto('mfa_factors')
    .values({
      id: 'enabled-factor',
      app_id: t.app.id,
      user_id: userId,
      method: 'totp',
      secret: null,
      enabled: 1,
      last_used_step: null,
      created_at: 0,
      enabled_at: 0,
      expires_at: null,
    })
    .execute()
  await purgeExpired(t.db, t.clock.now() + DAY)
  const kept = await t.db.selectFrom('mfa_factors').select('id').where('enabled', '=', 1).execute()
  expect(kept).toEqual([{ id: 'enabled-factor' }])
})

it('deletes in bounded batches until nothing expired is left', async () => {
  const now = t.clock.now() + 2 * DAY
  for (let i = 0; i < 5; i++)
    await t.db
      .insertInto('captcha_tokens')
      .values({ token_hash: `batch-${i}`, app_id: t.app.id, created_at: now - 1, expires_at: now })
      .execute()
  await purgeExpired(t.db, now - 1) // what earlier tests left
  expect((await purgeExpired(t.db, now, { batchSize: 2 })).captcha_tokens).toBe(5)
})

it('a spent enclave proof is kept past the end of its iat window (plus the margin), then purged', async () => {
  const login = await t.login('purge-proof@example.com', { enclaveKey: t.enclaveKey })
  const spentAt = t.clock.now()
  const res = await t.enclaveRequest(routes.embeddedWalletsCreate, {
    token: login.token ?? '',
    body: hdBody(),
    proof: { jti: 'purge-me' },
  })
  expect(res.status).toBe(200)
  const row = () =>
    t.db
      .selectFrom('enclave_proof_jtis')
      .select('expires_at')
      .where('jti_hash', '=', sha256(`${t.enclaveKey.jkt}.purge-me`))
      .execute()
  // The iat window is ±60 s: 120 s after the spend no replay of it passes anyway.
  expect(await row()).toEqual([{ expires_at: spentAt + 2 * ENCLAVE_PROOF_MAX_SKEW_S * 1000 }])
  const gone = spentAt + 2 * ENCLAVE_PROOF_MAX_SKEW_S * 1000 + 5 * 60_000
  await purgeExpired(t.db, gone - 1)
  expect(await row()).toHaveLength(1)
  expect((await purgeExpired(t.db, gone)).enclave_proof_jtis).toBe(1)
  expect(await row()).toEqual([])
})

describe('sessions', () => {
  const sessionOf = (refreshToken: string) =>
    t.db
      .selectFrom('refresh_tokens')
      .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
      .select(['sessions.id', 'sessions.expires_at', 'sessions.last_used_at'])
      .where('refresh_tokens.token_hash', '=', sha256(refreshToken))
      .executeTakeFirstOrThrow()
  const options = () => ({ sessions: t.server.services.config.sessions })
  const rows = async (sessionId: string) => ({
    sessions: await t.db.selectFrom('sessions').where('id', '=', sessionId).select('id').execute(),
    tokens: await t.db
      .selectFrom('refresh_tokens')
      .where('session_id', '=', sessionId)
      .select('token_hash')
      .execute(),
  })

  it('an idle session goes with its refresh tokens once it can no longer be refreshed', async () => {
    const login = await t.login('purge-idle@example.com')
    const first = await refresh(login.refresh_token ?? '')
    expect(first.status).toBe(200)
    const session = await sessionOf(first.body.refresh_token)
    const idleEnd = Number(session.last_used_at) + 7 * DAY

    await purgeExpired(t.db, idleEnd - 1, options())
    expect((await rows(session.id)).tokens).toHaveLength(2)
    t.clock.set(idleEnd - 1)
    const stillValid = await refresh(first.body.refresh_token)
    expect(stillValid.status).toBe(200)

    const lastUse = Number((await sessionOf(stillValid.body.refresh_token)).last_used_at)
    await purgeExpired(t.db, lastUse + 7 * DAY - 1, options())
    expect((await rows(session.id)).sessions).toHaveLength(1)
    const counts = await purgeExpired(t.db, lastUse + 7 * DAY, options())
    expect(counts).toMatchObject({ sessions: 1, refresh_tokens: 3 })
    expect(await rows(session.id)).toEqual({ sessions: [], tokens: [] })
  })

  it('a session past its absolute lifetime goes, revoked or not; a revoked one stays until then', async () => {
    const login = await t.login('purge-absolute@example.com')
    const session = await sessionOf(login.refresh_token ?? '')
    await t.request(routes.sessionLogout, {
      body: { refresh_token: login.refresh_token },
      token: login.token ?? undefined,
    })
    const expiresAt = Number(session.expires_at)
    // Idle does not apply here: only the absolute end is being tested.
    const noIdle = { sessions: { ...t.server.services.config.sessions, idleLifetimeMs: 365 * DAY } }

    await purgeExpired(t.db, expiresAt - 1, noIdle)
    expect((await rows(session.id)).sessions).toHaveLength(1)
    await purgeExpired(t.db, expiresAt, noIdle)
    expect(await rows(session.id)).toEqual({ sessions: [], tokens: [] })
  })
})

describe('the server runs the purge every purgeIntervalMs', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('not before the interval, at the interval, and never after close', async () => {
    // Only the interval is faked: the database drivers keep their real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    let ran: (message: string) => void = () => {}
    const purged = new Promise<string>((resolve) => {
      ran = resolve
    })
    const info = vi.fn((message: string) => ran(message))
    const logger: Logger = { info, warn: () => {}, error: () => {} }
    const s = await getTestInstance({ purgeIntervalMs: 60_000, logger })
    try {
      await s.db
        .insertInto('captcha_tokens')
        .values({ token_hash: 'tick', app_id: s.app.id, created_at: 0, expires_at: s.clock.now() })
        .execute()

      await vi.advanceTimersByTimeAsync(59_999)
      expect(info).not.toHaveBeenCalled()
      expect(await s.countRows('captcha_tokens')).toBe(1)

      await vi.advanceTimersByTimeAsync(1)
      expect(await purged).toMatch(/^purged 1 expired rows .*"captcha_tokens":1/)
      expect(await s.countRows('captcha_tokens')).toBe(0)
    } finally {
      await s.close()
    }
    expect(vi.getTimerCount()).toBe(0)
    await vi.advanceTimersByTimeAsync(10 * 60_000)
    expect(info).toHaveBeenCalledTimes(1)
  })
})
