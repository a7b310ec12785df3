import { routes } from '@latchkey/protocol'
import { decodeJwt } from 'jose'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { getUserWire } from '../users/service.ts'

// A refresh answers with the user and signs its accounts into the identity
// token. On PostgreSQL the rotation reads them in its one statement
// (sessions/rotate-pg.ts, as JSON), elsewhere getUserWire reads the rows:
// both must give exactly what getUserWire makes of the stored rows — the
// accounts' order (wallets of one millisecond by slot), wallets with their
// secret's recovery method, a wallet without its secret hidden, and the
// enabled MFA methods only.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const wallet = (id: string, secretId: string, data: Record<string, unknown>, at: number) => ({
  id,
  app_id: t.app.id,
  type: 'wallet',
  identifier: id,
  data: JSON.stringify({ secret_id: secretId, entropy_id: secretId, ...data }),
  created_at: at,
  first_verified_at: at,
  latest_verified_at: at,
})

const secret = (entropyId: string, recovery: 'latchkey' | 'user-passcode', at: number) => ({
  entropy_id: entropyId,
  app_id: t.app.id,
  entropy_type: recovery === 'latchkey' ? ('hd' as const) : ('private-key' as const),
  auth_share: 'sealed',
  recovery_method: recovery,
  recovery_ciphertext: 'sealed',
  recovery_key: null,
  recovery_kdf: null,
  recovery_key_id: null,
  created_at: at,
  updated_at: at,
})

const factor = (id: string, method: 'totp' | 'sms' | 'passkey', enabled: number, at: number) => ({
  id,
  app_id: t.app.id,
  method,
  secret: null,
  enabled,
  last_used_step: null,
  created_at: at,
  enabled_at: enabled ? at : null,
  expires_at: enabled ? null : at + 60_000,
})

it('the refresh answer and identity token are the stored user, wallets, order and MFA included', async () => {
  const login = await t.login('rich-user@example.com')
  const userId = login.user.id
  t.clock.advance(1_000)
  const at = t.clock.now()
  await t.db
    .insertInto('wallet_secrets')
    .values([
      { ...secret('0xhd', 'latchkey', at), user_id: userId },
      { ...secret('SoLimported', 'user-passcode', at), user_id: userId },
    ])
    .execute()
  // One millisecond, inserted out of slot order; one wallet without its secret.
  await t.db
    .insertInto('linked_accounts')
    .values(
      [
        wallet(
          'w-sol-imported',
          'SoLimported',
          { address: 'SoLimported', chain_type: 'solana' },
          at,
        ),
        wallet(
          'w-eth-1',
          '0xhd',
          { address: '0xeth1', chain_type: 'ethereum', wallet_index: 1 },
          at,
        ),
        wallet('w-sol-0', '0xhd', { address: 'SoL0', chain_type: 'solana', wallet_index: 0 }, at),
        wallet(
          'w-eth-0',
          '0xhd',
          { address: '0xeth0', chain_type: 'ethereum', wallet_index: 0 },
          at,
        ),
        wallet(
          'w-orphan',
          'gone',
          { address: '0xgone', chain_type: 'ethereum', wallet_index: 2 },
          at,
        ),
      ].map((row) => ({ ...row, user_id: userId })),
    )
    .execute()
  await t.db
    .insertInto('mfa_factors')
    .values([
      { ...factor('f-sms', 'sms', 1, at), user_id: userId },
      { ...factor('f-totp', 'totp', 1, at), user_id: userId },
      { ...factor('f-passkey', 'passkey', 0, at), user_id: userId },
    ])
    .execute()

  const refreshed = await t.request(routes.sessionRefresh, {
    body: { refresh_token: login.refresh_token },
  })
  expect(refreshed.status).toBe(200)
  const stored = await getUserWire(t.db, userId)
  expect(refreshed.body.user).toEqual(stored)
  const claims = decodeJwt(refreshed.body.identity_token)
  expect(JSON.parse(String(claims.linked_accounts))).toEqual(stored.linked_accounts)
  // What the rows make: the email address first, then the wallets by slot, the orphan hidden.
  expect(stored.linked_accounts.map((a) => ('address' in a ? a.address : a.type))).toEqual([
    'rich-user@example.com',
    '0xeth0',
    '0xeth1',
    'SoL0',
    'SoLimported',
  ])
  expect(stored.mfa_methods).toHaveLength(2)
  const me = await t.request(routes.usersMe, { token: refreshed.body.token })
  expect(me.body.user).toEqual(refreshed.body.user)
})

it('a user with one account and no MFA answers the same as the stored user', async () => {
  const login = await t.login('plain-user@example.com')
  const refreshed = await t.request(routes.sessionRefresh, {
    body: { refresh_token: login.refresh_token },
  })
  expect(refreshed.status).toBe(200)
  expect(refreshed.body.user).toEqual(await getUserWire(t.db, login.user.id))
  expect(refreshed.body.user).toEqual(login.user)
})
