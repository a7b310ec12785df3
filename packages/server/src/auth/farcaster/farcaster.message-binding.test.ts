import type { CreateSiweMessageParameters } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { channelTokenHash } from './channels.ts'
import {
  type FarcasterTestInstance,
  type FarcasterUser,
  getFarcasterTestInstance,
} from './farcaster.fixture.ts'

/*
 * Security bar 21: the SIWF message must name this channel's domain, URI and
 * nonce, chain 10, and exactly the fid being logged in, inside its time
 * window. Each test has the real custody key sign a message that differs in
 * one field; the server refuses it, creates nobody and leaves the channel
 * unspent.
 */

let t: FarcasterTestInstance
beforeAll(async () => {
  t = await getFarcasterTestInstance()
})
afterAll(() => t?.close())

async function expectRefused(
  reason: string,
  overrides: (user: FarcasterUser) => Partial<CreateSiweMessageParameters>,
): Promise<void> {
  const user = await t.newFarcasterUser()
  const body = await t.proof(user, { overrides: overrides(user) })
  const users = await t.countRows('users')
  const res = await t.authenticate(body)
  expect(res).toMatchObject({
    status: 400,
    body: { code: 'AUTHENTICATION_FAILED', message: 'Authentication failed', details: { reason } },
  })
  expect(await t.countRows('users')).toBe(users)
  const channel = await t.db
    .selectFrom('farcaster_channels')
    .select('used_at')
    .where('channel_token_hash', '=', channelTokenHash(body.channel_token))
    .executeTakeFirstOrThrow()
  expect(channel.used_at).toBeNull()
}

describe('farcaster message binding', () => {
  it('refuses a message for another domain', async () => {
    await expectRefused('domain_mismatch', () => ({ domain: 'evil.test' }))
    await expectRefused('domain_mismatch', () => ({ domain: 'app.test:8080' }))
  })

  it('refuses a message naming another scheme for the domain', async () => {
    await expectRefused('domain_mismatch', () => ({ scheme: 'https' }))
  })

  it('refuses a message with another nonce', async () => {
    await expectRefused('nonce_mismatch', () => ({ nonce: 'a1b2c3d4e5f6a7b8' }))
  })

  it('refuses a message with another URI', async () => {
    await expectRefused('uri_mismatch', () => ({ uri: 'http://app.test/elsewhere' }))
    await expectRefused('uri_mismatch', () => ({ uri: 'https://app.test' }))
  })

  it('refuses a message whose fid resource is missing, doubled or another fid', async () => {
    await expectRefused('fid_mismatch', () => ({ resources: [] }))
    await expectRefused('fid_mismatch', (user) => ({
      resources: [`farcaster://fid/${user.fid}`, `farcaster://fid/${user.fid + 1000}`],
    }))
    await expectRefused('fid_mismatch', (user) => ({
      resources: [`farcaster://fid/${user.fid + 1000}`],
    }))
  })

  it('refuses a proof posted for another fid than the message names', async () => {
    const user = await t.newFarcasterUser()
    const other = await t.newFarcasterUser()
    const body = await t.proof(user)
    const res = await t.authenticate({ ...body, fid: other.fid })
    expect(res.body).toMatchObject({
      code: 'AUTHENTICATION_FAILED',
      details: { reason: 'fid_mismatch' },
    })
  })

  it('refuses a message for another chain than Optimism', async () => {
    await expectRefused('chain_mismatch', () => ({ chainId: 1 }))
  })

  it('refuses a message signed as an auth address instead of the custody address', async () => {
    await expectRefused('auth_address_not_accepted', (user) => ({
      resources: [`farcaster://fid/${user.fid}`, 'farcaster://signer/type/authAddress'],
    }))
  })

  it('refuses a message past its expiration time or before its not-before time', async () => {
    const now = t.clock.now()
    await expectRefused('message_expired', () => ({ expirationTime: new Date(now - 1) }))
    await expectRefused('message_not_yet_valid', () => ({ notBefore: new Date(now + 60_000) }))
  })

  it('refuses text that is not a SIWE message', async () => {
    const user = await t.newFarcasterUser()
    const body = await t.proof(user)
    const res = await t.authenticate({ ...body, message: 'hello' })
    expect(res.body).toMatchObject({ details: { reason: 'invalid_message' } })
  })
})
