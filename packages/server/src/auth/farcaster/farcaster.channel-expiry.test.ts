import { FARCASTER_TIMEOUT_MS } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type FarcasterTestInstance, getFarcasterTestInstance } from './farcaster.fixture.ts'
import { FARCASTER_CHANNEL_SLACK_MS } from './schema.ts'

/*
 * Spec 01 §4 "Farcaster": a channel lives 2 minutes (plus a little slack for
 * the last poll); after that, status and authenticate answer 'The request
 * timed out. Try again.' even for a correctly signed message.
 */

let t: FarcasterTestInstance
beforeAll(async () => {
  t = await getFarcasterTestInstance()
})
afterAll(() => t?.close())

const timedOut = {
  status: 400,
  body: { code: 'FARCASTER_TIMEOUT', message: 'The request timed out. Try again.' },
}

describe('farcaster channel expiry', () => {
  it('answers FARCASTER_TIMEOUT to a poll of an expired channel', async () => {
    const { channel_token } = await t.init()
    t.clock.advance(FARCASTER_TIMEOUT_MS + FARCASTER_CHANNEL_SLACK_MS - 1)
    expect((await t.status(channel_token)).body).toEqual({ state: 'pending' })
    t.clock.advance(1)
    expect(await t.status(channel_token)).toMatchObject(timedOut)
  })

  it('refuses a correctly signed message once the channel expired', async () => {
    const user = await t.newFarcasterUser()
    const body = await t.proof(user)
    t.clock.advance(FARCASTER_TIMEOUT_MS + FARCASTER_CHANNEL_SLACK_MS)
    const users = await t.countRows('users')
    expect(await t.authenticate(body)).toMatchObject(timedOut)
    expect(await t.countRows('users')).toBe(users)
  })

  it('still says timed out to a late poll, after newer channels cleaned old rows up', async () => {
    const { channel_token } = await t.init()
    t.clock.advance(FARCASTER_TIMEOUT_MS + FARCASTER_CHANNEL_SLACK_MS + 60_000)
    await t.init()
    expect(await t.status(channel_token)).toMatchObject(timedOut)
  })
})
