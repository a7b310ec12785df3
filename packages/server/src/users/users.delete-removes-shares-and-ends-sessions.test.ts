import { randomBytes } from 'node:crypto'
import { type AuthResponse, routes } from '@latchkey/protocol'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Database } from '../db/types.ts'
import { createTestEnclaveKey, type TestEnclaveKey } from '../test/enclave-key.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { hdBody } from '../test/wallets.ts'
import { insertAccount } from './service.ts'

// Tracker issue 15, item 9 (security bar 34): a user who deletes their
// account takes every row of theirs with them — wallet secrets (the auth
// shares and recovery material) and key-release records included — and every
// one of their sessions ends at once, access and refresh tokens alike.
let t: TestInstance
const logged: string[] = []
beforeAll(async () => {
  t = await getTestInstance({
    logger: {
      // Access lines ('request', one per call) aside: the service's own lines.
      info: (line) => {
        if (line !== 'request') logged.push(line)
      },
      warn() {},
      error() {},
    },
  })
})
afterAll(() => t.close())

/** Columns that name a user; a table with one of them belongs (in part) to users. */
const USER_COLUMNS = ['user_id', 'from_user_id']

/** Every table with a user column, and those columns: read from the schema, not listed by hand. */
async function userTables(): Promise<Array<{ table: keyof Database; columns: string[] }>> {
  const found = new Map<string, string[]>()
  // PostgreSQL: only this test's own schema (other suites' schemas may exist at the same time).
  const schema =
    t.dialect === 'postgres'
      ? (await sql<{ s: string }>`select current_schema() as s`.execute(t.db)).rows[0]?.s
      : undefined
  for (const table of await t.db.introspection.getTables()) {
    if (schema !== undefined && table.schema !== schema) continue
    found.set(
      table.name,
      table.columns.map((c) => c.name).filter((name) => USER_COLUMNS.includes(name)),
    )
  }
  return [...found]
    .filter(([, columns]) => columns.length > 0)
    .map(([table, columns]) => ({ table: table as keyof Database, columns }))
    .sort((a, b) => a.table.localeCompare(b.table))
}

/** Rows of `userId` per user-referencing table, plus the refresh tokens of `sessionIds`. */
async function rowsOf(userId: string, sessionIds: string[]) {
  const counts: Record<string, number> = {}
  for (const { table, columns } of await userTables()) {
    const matches = columns.map((column) => sql`${sql.ref(column)} = ${userId}`)
    const { rows } = await sql<{ n: number }>`
      select count(*) as n from ${sql.table(table)} where ${sql.join(matches, sql` or `)}
    `.execute(t.db)
    counts[table] = Number(rows[0]?.n)
  }
  counts.refresh_tokens = (
    await t.db
      .selectFrom('refresh_tokens')
      .select('token_hash')
      .where('session_id', 'in', sessionIds)
      .execute()
  ).length
  return counts
}

const sidOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')).sid

interface Session {
  auth: AuthResponse
  token: string
  key: TestEnclaveKey
}

/** Logs `email` in on a device of its own (its own enclave key). */
async function device(email: string): Promise<Session> {
  const key = await createTestEnclaveKey()
  const auth = await t.login(email, { enclaveKey: key })
  return { auth, token: auth.token ?? '', key }
}

/** A user with two devices, an embedded wallet, a key release, and one row in each transient table. */
async function userWithEverything(email: string, other?: string) {
  const first = await device(email)
  const second = await device(email)
  const userId = first.auth.user.id
  const wallet = hdBody({ solana: true })
  const call = (s: Session, path: string, body: object) =>
    t.enclaveRequest(path, { token: s.token, body, enclaveKey: s.key })
  expect((await call(first, routes.embeddedWalletsCreate, wallet)).status).toBe(200)
  expect(
    (await call(second, routes.embeddedWalletsAuthShare, { entropy_id: wallet.entropy_id })).status,
  ).toBe(200)
  const now = t.clock.now()
  const later = now + 10 * 60_000
  const appId = t.app.id
  await insertAccount(
    t.db,
    appId,
    userId,
    { type: 'passkey', identifier: randomBytes(16).toString('base64url'), data: {} },
    now,
  )
  const state = () => randomBytes(16).toString('hex')
  await t.db
    .insertInto('recovery_oauth_states')
    .values({
      state_hash: state(),
      app_id: appId,
      user_id: userId,
      provider: 'google-drive',
      redirect_to: `${TEST_ORIGIN}/wallet`,
      code_challenge: null,
      created_at: now,
      expires_at: later,
      used_at: null,
    })
    .execute()
  await t.db
    .insertInto('oauth_login_states')
    .values({
      state_hash: state(),
      app_id: appId,
      user_id: userId,
      provider: 'google',
      intent: 'link',
      redirect_to: TEST_ORIGIN,
      code_challenge: state(),
      created_at: now,
      expires_at: later,
      used_at: null,
    })
    .execute()
  await t.db
    .insertInto('passkey_challenges')
    .values({
      challenge: state(),
      app_id: appId,
      purpose: 'link',
      user_id: userId,
      rp_id: 'app.test',
      origin: TEST_ORIGIN,
      webauthn_user_id: null,
      created_at: now,
      expires_at: later,
      used_at: null,
    })
    .execute()
  // MFA: a pending authenticator setup, the first session's verification, an attempt window.
  await t.db
    .insertInto('mfa_factors')
    .values({
      id: state(),
      app_id: appId,
      user_id: userId,
      method: 'totp',
      secret: null,
      enabled: 0,
      last_used_step: null,
      created_at: now,
      enabled_at: null,
      expires_at: later,
    })
    .execute()
  await t.db
    .insertInto('mfa_verifications')
    .values({
      session_id: sidOf(first.token),
      user_id: userId,
      method: 'totp',
      verified_at: now,
      expires_at: later,
    })
    .execute()
  await t.db
    .insertInto('mfa_attempts')
    .values({ user_id: userId, attempts: 1, expires_at: later })
    .execute()
  // A Farcaster signer key the enclave made for the user (auth/farcaster/signer-service.ts).
  await t.db
    .insertInto('farcaster_signers')
    .values({
      app_id: appId,
      public_key: `0x${randomBytes(32).toString('hex')}`,
      user_id: userId,
      request_token: state(),
      approval_url: 'farcaster://signed-key-request?token=test',
      status: 'pending_approval',
      fid: null,
      deadline: Math.floor(later / 1000),
      created_at: now,
      updated_at: now,
    })
    .execute()
  // A delegated wallet and a server-side signature of it (delegation/, migration 020).
  const walletRow = await t.db
    .selectFrom('linked_accounts')
    .select(['id', 'identifier'])
    .where('user_id', '=', userId)
    .where('identifier', '=', wallet.entropy_id.toLowerCase())
    .executeTakeFirstOrThrow()
  await t.db
    .insertInto('wallet_delegations')
    .values({
      app_id: appId,
      address: walletRow.identifier,
      user_id: userId,
      account_id: walletRow.id,
      chain_type: 'ethereum',
      entropy_id: walletRow.identifier,
      device_share: 'v1.sealed',
      created_at: now,
    })
    .execute()
  await t.db
    .insertInto('delegated_actions')
    .values({
      id: state(),
      app_id: appId,
      user_id: userId,
      address: walletRow.identifier,
      chain_type: 'ethereum',
      method: 'personal_sign',
      caip2: null,
      to_address: null,
      value: null,
      result: '0x00',
      outcome: 'signed',
      refusal_code: null,
      created_at: now,
    })
    .execute()
  await t.db
    .insertInto('sponsored_operations')
    .values({
      id: state(),
      app_id: appId,
      user_id: userId,
      chain_id: 8453,
      sender: walletRow.identifier,
      nonce: '0',
      max_cost: '1',
      created_at: now,
    })
    .execute()
  // A transfer offer made to this user, and one that would take an account from it.
  for (const [to, from] of other ? [[userId, other] as const, [other, userId] as const] : [])
    await t.db
      .insertInto('account_transfers')
      .values({
        nonce_hash: state(),
        app_id: appId,
        user_id: to,
        from_user_id: from,
        account_type: 'email',
        identifier: email,
        data: '{}',
        created_at: now,
        expires_at: later,
        used_at: null,
      })
      .execute()
  return { userId, first, second, wallet, sessionIds: [sidOf(first.token), sidOf(second.token)] }
}

const deleteAccount = (s: Session) =>
  t.enclaveRequest(routes.usersDelete, { token: s.token, body: {}, enclaveKey: s.key })

describe('deleting an account', () => {
  it("deletes the user's rows in every table that references users — shares, key releases, sessions — and no one else's", async () => {
    const bystander = await userWithEverything('bystander@example.com')
    const owner = await userWithEverything('leaving@example.com', bystander.userId)
    const before = await rowsOf(owner.userId, owner.sessionIds)
    // Every user table holds something of the owner's, so each is really checked.
    expect(Object.keys(before)).toEqual(
      expect.arrayContaining(['wallet_secrets', 'key_releases', 'sessions', 'linked_accounts']),
    )
    for (const [table, n] of Object.entries(before))
      expect({ table, n: n > 0 }).toEqual({ table, n: true })
    // Rows that are the bystander's alone (the shared transfer offers aside).
    const theirs = async () => {
      const rows = await rowsOf(bystander.userId, bystander.sessionIds)
      return { ...rows, account_transfers: undefined }
    }
    const bystanderBefore = await theirs()
    const logStart = logged.length

    expect(await deleteAccount(owner.first)).toMatchObject({
      status: 200,
      body: { success: true },
    })

    const after = await rowsOf(owner.userId, owner.sessionIds)
    expect(Object.values(after).every((n) => n === 0)).toBe(true)
    expect(after).toEqual(Object.fromEntries(Object.keys(before).map((table) => [table, 0])))
    const secret = await t.db
      .selectFrom('wallet_secrets')
      .select('entropy_id')
      .where('entropy_id', '=', owner.wallet.entropy_id.toLowerCase())
      .executeTakeFirst()
    expect(secret).toBeUndefined()
    const user = await t.db
      .selectFrom('users')
      .select('id')
      .where('id', '=', owner.userId)
      .executeTakeFirst()
    expect(user).toBeUndefined()
    expect(await theirs()).toEqual(bystanderBefore)
    // One info line, naming the user by id only.
    expect(logged.slice(logStart)).toEqual([
      `user deleted by its owner: ${owner.userId} (app ${t.app.id})`,
    ])
  })

  it('ends both sessions at once: their access tokens get 401 and their refresh tokens are refused', async () => {
    const owner = await userWithEverything('two-devices@example.com')
    for (const s of [owner.first, owner.second])
      expect((await t.request(routes.usersMe, { token: s.token })).status).toBe(200)

    expect((await deleteAccount(owner.second)).status).toBe(200)

    for (const s of [owner.first, owner.second]) {
      // Unexpired access tokens: the session row is gone, so every route refuses them.
      expect(await t.request(routes.usersMe, { token: s.token })).toMatchObject({
        status: 401,
        body: { code: 'UNAUTHORIZED' },
      })
      const share = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
        token: s.token,
        body: { entropy_id: owner.wallet.entropy_id },
        enclaveKey: s.key,
      })
      expect(share).toMatchObject({ status: 401, body: { code: 'UNAUTHORIZED' } })
      const refreshed = await t.request(routes.sessionRefresh, {
        body: { refresh_token: s.auth.refresh_token },
      })
      expect(refreshed).toMatchObject({ status: 401, body: { code: 'INVALID_REFRESH_TOKEN' } })
    }
    // Deleting again with a dead session is refused, not a second success.
    expect(await deleteAccount(owner.first)).toMatchObject({
      status: 401,
      body: { code: 'UNAUTHORIZED' },
    })
  })

  it('a new login with the same email makes a new user, with no wallet', async () => {
    const owner = await userWithEverything('comeback@example.com')
    expect((await deleteAccount(owner.first)).status).toBe(200)

    const again = await device('comeback@example.com')
    expect(again.auth.is_new_user).toBe(true)
    expect(again.auth.user.id).not.toBe(owner.userId)
    expect(again.auth.user.linked_accounts.map((a) => a.type)).toEqual(['email'])
    // The old wallet's secret is gone for the new user too.
    const old = await t.enclaveRequest(routes.embeddedWalletsAuthShare, {
      token: again.token,
      body: { entropy_id: owner.wallet.entropy_id },
      enclaveKey: again.key,
    })
    expect(old).toMatchObject({ status: 404, body: { code: 'WALLET_NOT_FOUND' } })
    const fresh = hdBody()
    const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
      token: again.token,
      body: fresh,
      enclaveKey: again.key,
    })
    expect(created.status).toBe(200)
  })
})
