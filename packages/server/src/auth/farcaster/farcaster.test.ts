import { createHash } from 'node:crypto'
import { FARCASTER_TIMEOUT_MS, routes } from '@latchkey/protocol'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_ORIGIN } from '../../test/instance.ts'
import {
  FARCASTER_SETTINGS,
  type FarcasterTestInstance,
  getFarcasterTestInstance,
} from './farcaster.fixture.ts'
import { FARCASTER_CHANNEL_SLACK_MS, FARCASTER_INITS_PER_IP } from './schema.ts'

let t: FarcasterTestInstance
beforeAll(async () => {
  t = await getFarcasterTestInstance()
})
afterAll(() => t?.close())

const profile = {
  username: 'alice',
  displayName: 'Alice',
  bio: 'gm',
  pfpUrl: 'https://i.imgur.com/alice.png',
}

describe('farcaster init', () => {
  it('opens a relay channel bound to the page origin, with a 128-bit nonce', async () => {
    const now = t.clock.now()
    const res = await t.request(routes.farcasterInit, { body: {}, origin: TEST_ORIGIN })
    expect(res.status).toBe(200)
    expect(res.body.connect_uri).toMatch(/^https:\/\/farcaster\.xyz\/~\/siwf\?channelToken=/)
    expect(res.body.expires_at).toBe(now + FARCASTER_TIMEOUT_MS + FARCASTER_CHANNEL_SLACK_MS)
    const sent = t.relay.createdChannels.at(-1)
    expect(sent).toEqual({
      siweUri: TEST_ORIGIN,
      domain: 'app.test',
      nonce: expect.stringMatching(/^[0-9a-f]{32}$/),
      expirationTime: new Date(res.body.expires_at).toISOString(),
      // Security bar 21: only the custody address may sign.
      acceptAuthAddress: false,
    })
    // Only the token's hash is stored.
    const row = await t.db
      .selectFrom('farcaster_channels')
      .selectAll()
      .where('nonce', '=', sent?.nonce ?? '')
      .executeTakeFirstOrThrow()
    expect(row.channel_token_hash).toBe(
      createHash('sha256').update(res.body.channel_token).digest('hex'),
    )
    expect(JSON.stringify(row)).not.toContain(res.body.channel_token)
    expect(row).toMatchObject({ app_id: t.app.id, domain: 'app.test', siwe_uri: TEST_ORIGIN })
  })

  it("refuses a page that is not one of the app's origins", async () => {
    for (const origin of [null, 'http://evil.test', 'http://latchkey.test']) {
      const res = await t.request(routes.farcasterInit, { body: {}, origin })
      expect(res).toMatchObject({ status: 403, body: { code: 'ORIGIN_NOT_ALLOWED' } })
    }
  })

  it("answers 'Not allowed' when the app switched Farcaster off", async () => {
    const off = await t.createApp({ login_methods: { email: true, farcaster: false } })
    const res = await t.request(routes.farcasterInit, {
      body: {},
      origin: TEST_ORIGIN,
      appId: off.id,
    })
    expect(res).toMatchObject({ status: 403, body: { code: 'LOGIN_METHOD_NOT_ALLOWED' } })
  })

  it('answers FARCASTER_RELAY_ERROR when the relay is down', async () => {
    const { channel_token } = await t.init()
    t.relay.setAvailable(false)
    try {
      const init = await t.request(routes.farcasterInit, { body: {}, origin: TEST_ORIGIN })
      expect(init).toMatchObject({ status: 424, body: { code: 'FARCASTER_RELAY_ERROR' } })
      const status = await t.status(channel_token)
      expect(status).toMatchObject({ status: 424, body: { code: 'FARCASTER_RELAY_ERROR' } })
    } finally {
      t.relay.setAvailable(true)
    }
  })

  it('limits the channels one IP may open', async () => {
    const app = await t.createApp(FARCASTER_SETTINGS)
    for (let i = 0; i < FARCASTER_INITS_PER_IP.limit; i++) await t.init({ appId: app.id })
    const res = await t.request(routes.farcasterInit, {
      body: {},
      origin: TEST_ORIGIN,
      appId: app.id,
    })
    expect(res).toMatchObject({ status: 429, body: { code: 'TOO_MANY_REQUESTS' } })
  })
})

describe('farcaster status', () => {
  it('is pending, then completed with the signed message and the profile', async () => {
    const user = await t.newFarcasterUser()
    const { channel_token } = await t.init()
    expect((await t.status(channel_token)).body).toEqual({ state: 'pending' })
    const signed = await t.sign(channel_token, user, { profile })
    const completed = {
      state: 'completed',
      message: signed.message,
      signature: signed.signature,
      fid: user.fid,
      username: 'alice',
      display_name: 'Alice',
      bio: 'gm',
      pfp_url: 'https://i.imgur.com/alice.png',
    }
    expect(await t.status(channel_token)).toMatchObject({ status: 200, body: completed })
    // The relay forgets a channel once it reported it completed; the next poll still answers.
    expect(t.relay.channel(channel_token)).toBeUndefined()
    expect((await t.status(channel_token)).body).toEqual(completed)
  })

  it('needs the channel token header', async () => {
    const res = await t.request(routes.farcasterStatus, { method: 'GET', origin: TEST_ORIGIN })
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
  })

  it("answers 'Authentication failed' for an unknown channel token", async () => {
    const res = await t.status('not-a-channel')
    expect(res).toMatchObject({
      status: 400,
      body: { code: 'AUTHENTICATION_FAILED', details: { reason: 'unknown_channel' } },
    })
  })
})

describe('farcaster login', () => {
  it('signs up with the custody signature, then logs the same user in', async () => {
    const user = await t.newFarcasterUser()
    const first = await t.proof(user, { profile })
    await t.status(first.channel_token)
    const res = await t.authenticate(first)
    expect(res.status).toBe(200)
    expect(res.body.is_new_user).toBe(true)
    expect(res.body.user.linked_accounts).toEqual([
      expect.objectContaining({
        type: 'farcaster',
        fid: user.fid,
        owner_address: user.account.address,
        username: 'alice',
        display_name: 'Alice',
        bio: 'gm',
        profile_picture_url: 'https://i.imgur.com/alice.png',
        signer_public_key: null,
      }),
    ])
    t.clock.advance(5_000)
    const again = await t.authenticate(
      await t.proof(user, { profile: { ...profile, username: 'alice2' } }),
    )
    expect(again.body).toMatchObject({ is_new_user: false, user: { id: res.body.user.id } })
    // Not polled through this server: the profile is read from the relay at authenticate.
    expect(again.body.user.linked_accounts[0].username).toBe('alice2')
  })

  it('never takes profile fields from the browser', async () => {
    const user = await t.newFarcasterUser()
    const body = await t.proof(user, { profile: { username: 'real' } })
    const res = await t.authenticate({ ...body, username: 'admin', display_name: 'Admin' } as never)
    expect(res.status).toBe(200)
    expect(res.body.user.linked_accounts[0]).toMatchObject({
      username: 'real',
      display_name: null,
    })
  })

  it('accepts a smart-contract custody address (ERC-1271)', async () => {
    const owner = privateKeyToAccount(generatePrivateKey())
    const wallet = await t.chain.deployContractWallet(owner.address)
    const fid = await t.chain.register(wallet)
    const body = await t.proof({ account: owner, fid }, { address: wallet })
    const res = await t.authenticate(body)
    expect(res.status).toBe(200)
    expect(res.body.user.linked_accounts[0]).toMatchObject({ fid, owner_address: wallet })
  })

  it("answers 'Not allowed' when the app switched Farcaster off", async () => {
    const user = await t.newFarcasterUser()
    const body = await t.proof(user)
    const off = await t.createApp({ login_methods: { farcaster: false } })
    const res = await t.authenticate(body, { appId: off.id })
    expect(res).toMatchObject({ status: 403, body: { code: 'LOGIN_METHOD_NOT_ALLOWED' } })
  })
})
