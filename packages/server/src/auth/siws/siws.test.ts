import { routes, SIGN_IN_NONCE_TTL_MS } from '@latchkey/protocol'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../../test/instance.ts'
import { insertAccount } from '../../users/service.ts'
import { failureReason, siweSignIn, WALLET_APP_SETTINGS } from '../siwe/testing.ts'
import { siwsSignIn, solanaKeypair } from './testing.ts'

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: WALLET_APP_SETTINGS })
})
afterAll(() => t.close())

describe('SIWS init', () => {
  it("builds the sign-in input from the caller's origin and stores it with the nonce", async () => {
    const { address } = solanaKeypair()
    const res = await t.request(routes.siwsInit, { body: { address }, origin: TEST_ORIGIN })
    expect(res.status).toBe(200)
    const now = t.clock.now()
    expect(res.body).toEqual({
      nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      address,
      expires_at: now + SIGN_IN_NONCE_TTL_MS,
      sign_in_input: {
        domain: 'app.test',
        address,
        statement: 'Sign in to Test App',
        uri: TEST_ORIGIN,
        version: '1',
        chain_id: 'mainnet',
        nonce: res.body.nonce,
        issued_at: new Date(now).toISOString(),
        expiration_time: new Date(now + SIGN_IN_NONCE_TTL_MS).toISOString(),
      },
    })
    const row = await t.db
      .selectFrom('sign_in_nonces')
      .selectAll()
      .where('nonce', '=', res.body.nonce)
      .executeTakeFirstOrThrow()
    expect(row).toMatchObject({ chain_type: 'solana', address, used_at: null })
    expect(JSON.parse(row.sign_in_input ?? '')).toEqual(res.body.sign_in_input)
  })

  it('needs an Origin of the app and an Ed25519 public key', async () => {
    const { address } = solanaKeypair()
    const noOrigin = await t.request(routes.siwsInit, { body: { address } })
    expect(failureReason(noOrigin)).toBe('ORIGIN_NOT_ALLOWED')
    const ownOrigin = await t.request(routes.siwsInit, {
      body: { address },
      origin: 'http://latchkey.test',
    })
    expect(ownOrigin.body.code).toBe('ORIGIN_NOT_ALLOWED')
    // Valid base58 of 33 bytes: not a public key.
    const notAKey = await t.request(routes.siwsInit, {
      body: { address: '1'.repeat(33) },
      origin: TEST_ORIGIN,
    })
    expect(notAKey).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
  })
})

describe('SIWS login', () => {
  it('signs up with a plain signed message, then logs the same user in', async () => {
    const keypair = solanaKeypair()
    const first = await siwsSignIn(t, keypair)
    expect(first.status).toBe(200)
    expect(first.body.is_new_user).toBe(true)
    expect(first.body.user.linked_accounts).toEqual([
      expect.objectContaining({
        type: 'wallet',
        address: keypair.address,
        chain_type: 'solana',
        chain_id: null,
        wallet_client_type: 'phantom',
        connector_type: 'solana_adapter',
      }),
    ])
    const again = await siwsSignIn(t, keypair, { encoding: 'base58' })
    expect(again.body).toMatchObject({ is_new_user: false, user: { id: first.body.user.id } })
    const row = await t.db
      .selectFrom('linked_accounts')
      .select(['type', 'identifier'])
      .where('identifier', '=', keypair.address)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ type: 'siws', identifier: keypair.address })
  })

  it('no-signup refuses an unknown address', async () => {
    const res = await siwsSignIn(t, solanaKeypair(), { body: { mode: 'no-signup' } })
    expect(res).toMatchObject({ status: 404, body: { code: 'USER_DOES_NOT_EXIST' } })
  })

  it('refuses every call when the app has wallet login off', async () => {
    const off = await t.createApp({ login_methods: { email: true } })
    const init = await t.request(routes.siwsInit, {
      body: { address: solanaKeypair().address },
      origin: TEST_ORIGIN,
      appId: off.id,
    })
    expect(init).toMatchObject({ status: 403, body: { code: 'LOGIN_METHOD_NOT_ALLOWED' } })
  })

  it('an embedded wallet address can not log in', async () => {
    const keypair = solanaKeypair()
    const owner = await t.login('embedded-siws@example.com')
    await insertAccount(
      t.db,
      t.app.id,
      owner.user.id,
      { type: 'wallet', identifier: keypair.address, data: { chain_type: 'solana' } },
      t.clock.now(),
    )
    // Spec 03 §8: its own code and words (siws.embedded-solana-wallet-refused.test.ts).
    const res = await siwsSignIn(t, keypair)
    expect(failureReason(res)).toBe('EMBEDDED_SOLANA_WALLET_LOGIN')
    expect(res.body.details).toEqual({ reason: 'embedded_wallet' })
  })
})

describe('SIWS linking', () => {
  it('links beside an Ethereum wallet, refuses a second and a taken one, then unlinks', async () => {
    const login = await t.login('siws-link@example.com')
    const token = login.token ?? ''
    const eth = await siweSignIn(t, privateKeyToAccount(generatePrivateKey()), {
      path: routes.siweLink,
      token,
    })
    expect(eth.status).toBe(200)
    t.clock.advance(1_000) // accounts list in creation order
    const keypair = solanaKeypair()
    const linked = await siwsSignIn(t, keypair, { path: routes.siwsLink, token })
    expect(linked.status).toBe(200)
    expect(
      linked.body.linked_accounts.map((a: { type: string; chain_type?: string }) =>
        a.chain_type ? `${a.type}:${a.chain_type}` : a.type,
      ),
    ).toEqual(['email', 'wallet:ethereum', 'wallet:solana'])

    const second = await siwsSignIn(t, solanaKeypair(), { path: routes.siwsLink, token })
    expect(second.body.code).toBe('WALLET_LINK_LIMIT')
    const other = await t.login('siws-other@example.com')
    const taken = await siwsSignIn(t, keypair, { path: routes.siwsLink, token: other.token ?? '' })
    expect(taken.body.code).toBe('WALLET_ADDRESS_TAKEN')

    const viaWallet = await siwsSignIn(t, keypair)
    expect(viaWallet.body.user.id).toBe(login.user.id)

    const unlinked = await t.request(routes.siwsUnlink, {
      token,
      body: { address: keypair.address },
    })
    expect(unlinked.status).toBe(200)
    expect(unlinked.body.linked_accounts).toHaveLength(2)
    const gone = await t.request(routes.siwsUnlink, { token, body: { address: keypair.address } })
    expect(gone.body.code).toBe('ACCOUNT_NOT_LINKED')
  })

  it('refuses to unlink the last login method', async () => {
    const keypair = solanaKeypair()
    const login = await siwsSignIn(t, keypair)
    const res = await t.request(routes.siwsUnlink, {
      token: login.body.token,
      body: { address: keypair.address },
    })
    expect(res.body.code).toBe('CANNOT_UNLINK_LAST_ACCOUNT')
  })
})
