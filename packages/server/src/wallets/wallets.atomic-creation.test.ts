import { routes } from '@latchkey/protocol'
import { sql } from 'kysely'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../test/instance.ts'
import { hdBody, solAddress } from '../test/wallets.ts'

// ARCHITECTURE "Embedded wallet keys": creating a wallet is atomic. The
// wallets appear only once both shares are stored; a failure between the
// secret row and the wallet rows leaves nothing, and a retry then succeeds.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance()
})
afterAll(() => t.close())

const wallets = (user: { linked_accounts: Array<{ type: string }> }) =>
  user.linked_accounts.filter((a) => a.type === 'wallet')

/** Makes the database refuse inserting the wallet account with this address. */
async function failWalletInsert(address: string): Promise<() => Promise<void>> {
  if (t.dialect === 'sqlite') {
    await sql
      .raw(
        `CREATE TRIGGER fail_wallet_insert BEFORE INSERT ON linked_accounts
         WHEN NEW.type = 'wallet' AND NEW.identifier = '${address}'
         BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      )
      .execute(t.db)
    return async () => {
      await sql.raw('DROP TRIGGER fail_wallet_insert').execute(t.db)
    }
  }
  await sql
    .raw(
      `CREATE FUNCTION fail_wallet_insert() RETURNS trigger AS $$
       BEGIN
         IF NEW.type = 'wallet' AND NEW.identifier = '${address}' THEN
           RAISE EXCEPTION 'injected failure';
         END IF;
         RETURN NEW;
       END $$ LANGUAGE plpgsql`,
    )
    .execute(t.db)
  await sql
    .raw(
      'CREATE TRIGGER fail_wallet_insert BEFORE INSERT ON linked_accounts FOR EACH ROW EXECUTE FUNCTION fail_wallet_insert()',
    )
    .execute(t.db)
  return async () => {
    await sql.raw('DROP TRIGGER fail_wallet_insert ON linked_accounts').execute(t.db)
    await sql.raw('DROP FUNCTION fail_wallet_insert()').execute(t.db)
  }
}

it('a wallet insert failing after the secret insert leaves no secret and no wallet; a retry succeeds', async () => {
  const token = (await t.login('atomic@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  const body = hdBody({ solana: true })
  const solana = body.wallets[1]?.address ?? ''
  const before = await t.countRows('wallet_secrets')
  const restore = await failWalletInsert(solana) // the second wallet row: after the secret and the first wallet
  try {
    const res = await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body })
    expect(res).toMatchObject({ status: 500, body: { code: 'INTERNAL_ERROR' } })
  } finally {
    await restore()
  }
  expect(await t.countRows('wallet_secrets')).toBe(before)
  const me = await t.request(routes.usersMe, { token })
  expect(wallets(me.body.user)).toEqual([])

  const retry = await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body })
  expect(retry.status).toBe(200)
  expect(wallets(retry.body)).toHaveLength(2)
  expect(await t.countRows('wallet_secrets')).toBe(before + 1)
})

it('a duplicate address in the batch (taken by another user meanwhile) rolls the whole create back', async () => {
  const taken = solAddress()
  const other = (await t.login('taker@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  const first = hdBody()
  first.wallets.push({ chain_type: 'solana', address: taken, wallet_index: 0 })
  expect(
    (await t.enclaveRequest(routes.embeddedWalletsCreate, { token: other, body: first })).status,
  ).toBe(200)

  const token = (await t.login('loser@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  const body = hdBody()
  body.wallets.push({ chain_type: 'solana', address: taken, wallet_index: 0 })
  const before = await t.countRows('wallet_secrets')
  expect(await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body })).toMatchObject({
    status: 400,
    body: { code: 'ACCOUNT_ALREADY_LINKED' },
  })
  expect(await t.countRows('wallet_secrets')).toBe(before)
  expect(
    await t.db
      .selectFrom('linked_accounts')
      .select('id')
      .where('identifier', '=', body.entropy_id)
      .execute(),
  ).toEqual([])
  // The same secret with a fresh Solana address goes through.
  body.wallets[1] = { chain_type: 'solana', address: solAddress(), wallet_index: 0 }
  expect((await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body })).status).toBe(200)
})

it('two concurrent HD creates for one user: exactly one wins, one secret row', async () => {
  const token = (await t.login('race@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  const me = await t.request(routes.usersMe, { token })
  const results = await Promise.all(
    [hdBody(), hdBody(), hdBody()].map((body) =>
      t.enclaveRequest(routes.embeddedWalletsCreate, { token, body }),
    ),
  )
  const statuses = results.map((r) => r.status).sort()
  expect(statuses).toEqual([200, 400, 400])
  for (const r of results.filter((r) => r.status === 400))
    expect(r.body).toMatchObject({
      code: 'WALLET_ALREADY_EXISTS',
      message: 'User already has an embedded wallet.',
    })
  const rows = await t.db
    .selectFrom('wallet_secrets')
    .select('entropy_id')
    .where('user_id', '=', me.body.user.id)
    .execute()
  expect(rows).toHaveLength(1)
  const after = await t.request(routes.usersMe, { token })
  expect(wallets(after.body.user)).toHaveLength(1)
})

it('a wallet row whose secret row is missing is never shown', async () => {
  const token = (await t.login('orphan@example.com', { enclaveKey: t.enclaveKey })).token ?? ''
  const body = hdBody()
  expect((await t.enclaveRequest(routes.embeddedWalletsCreate, { token, body })).status).toBe(200)
  await t.db.deleteFrom('wallet_secrets').where('entropy_id', '=', body.entropy_id).execute()
  const me = await t.request(routes.usersMe, { token })
  expect(wallets(me.body.user)).toEqual([])
})
