import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { TEST_ORIGIN } from '../../test/instance.ts'
import {
  FARCASTER_SETTINGS,
  type FarcasterTestInstance,
  getFarcasterTestInstance,
} from './farcaster.fixture.ts'

/*
 * A channel belongs to the app that opened it: another app (even one on the
 * same origin) can neither poll it nor log in with it.
 */

let t: FarcasterTestInstance
beforeAll(async () => {
  t = await getFarcasterTestInstance()
})
afterAll(() => t?.close())

const unknown = {
  status: 400,
  body: { code: 'AUTHENTICATION_FAILED', details: { reason: 'unknown_channel' } },
}

describe("farcaster other app's channel", () => {
  it("refuses another app's channel for status, login and link", async () => {
    const other = await t.createApp(FARCASTER_SETTINGS, [TEST_ORIGIN])
    const user = await t.newFarcasterUser()
    const body = await t.proof(user)
    expect(await t.status(body.channel_token, { appId: other.id })).toMatchObject(unknown)
    expect(await t.authenticate(body, { appId: other.id })).toMatchObject(unknown)
    const session = await t.login('other-app@example.com', { appId: other.id })
    const link = await t.request('/api/v1/farcaster/link', {
      body,
      token: session.token ?? undefined,
      appId: other.id,
      origin: TEST_ORIGIN,
    })
    expect(link).toMatchObject(unknown)
    // Still usable by its own app.
    expect((await t.authenticate(body)).status).toBe(200)
  })
})
