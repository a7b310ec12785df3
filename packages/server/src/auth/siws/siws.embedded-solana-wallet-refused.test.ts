import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, type TestInstance } from '../../test/instance.ts'
import { insertAccount } from '../../users/service.ts'
import { WALLET_APP_SETTINGS } from '../siwe/testing.ts'
import { type SolanaKeypair, siwsSignIn, solanaKeypair } from './testing.ts'

// Spec 03 §2 / §8: embedded Solana wallets cannot be used to log in or link,
// and cannot be unlinked: 'Cannot login or link with an embedded Solana
// wallet', 'Cannot unlink an embedded Solana wallet' (400 each).

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: WALLET_APP_SETTINGS })
})
afterAll(() => t.close())

/** A user whose embedded Solana wallet is `keypair`'s address, with their token. */
async function ownerOfEmbedded(email: string, keypair: SolanaKeypair) {
  const owner = await t.login(email)
  await insertAccount(
    t.db,
    t.app.id,
    owner.user.id,
    {
      type: 'wallet',
      identifier: keypair.address,
      data: { address: keypair.address, chain_type: 'solana' },
    },
    t.clock.now(),
  )
  return { userId: owner.user.id, token: owner.token ?? '' }
}

describe('an embedded Solana wallet', () => {
  it("can not log in: 'Cannot login or link with an embedded Solana wallet'", async () => {
    const keypair = solanaKeypair()
    await ownerOfEmbedded('embedded-sol-login@example.com', keypair)
    const res = await siwsSignIn(t, keypair)
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'EMBEDDED_SOLANA_WALLET_LOGIN',
        message: 'Cannot login or link with an embedded Solana wallet',
      },
    })
    // The machine reason WALLET_LOGIN_FAILED carried before stays in the details.
    expect(res.body.details).toEqual({ reason: 'embedded_wallet' })
  })

  it('can not be linked, by its owner or by another user', async () => {
    const keypair = solanaKeypair()
    const owner = await ownerOfEmbedded('embedded-sol-link@example.com', keypair)
    const other = await t.login('embedded-sol-link-other@example.com')
    for (const token of [owner.token, other.token ?? '']) {
      const res = await siwsSignIn(t, keypair, { path: routes.siwsLink, token })
      expect(res).toMatchObject({
        status: 400,
        body: {
          code: 'EMBEDDED_SOLANA_WALLET_LOGIN',
          message: 'Cannot login or link with an embedded Solana wallet',
        },
      })
    }
    const accounts = await t.db
      .selectFrom('linked_accounts')
      .select(['type', 'user_id'])
      .where('identifier', '=', keypair.address)
      .execute()
    expect(accounts).toEqual([{ type: 'wallet', user_id: owner.userId }])
  })

  it("can not be unlinked by its owner: 'Cannot unlink an embedded Solana wallet', and stays", async () => {
    const keypair = solanaKeypair()
    const owner = await ownerOfEmbedded('embedded-sol-unlink@example.com', keypair)
    const res = await t.request(routes.siwsUnlink, {
      token: owner.token,
      body: { address: keypair.address },
    })
    expect(res).toMatchObject({
      status: 400,
      body: {
        code: 'EMBEDDED_SOLANA_WALLET_UNLINK',
        message: 'Cannot unlink an embedded Solana wallet',
      },
    })
    const kept = await t.db
      .selectFrom('linked_accounts')
      .select('user_id')
      .where('identifier', '=', keypair.address)
      .executeTakeFirst()
    expect(kept?.user_id).toBe(owner.userId)
  })

  it("another user's embedded Solana wallet is just not linked to the caller", async () => {
    const keypair = solanaKeypair()
    await ownerOfEmbedded('embedded-sol-theirs@example.com', keypair)
    const caller = await t.login('embedded-sol-caller@example.com')
    const res = await t.request(routes.siwsUnlink, {
      token: caller.token ?? '',
      body: { address: keypair.address },
    })
    expect(res.body.code).toBe('ACCOUNT_NOT_LINKED')
  })
})
