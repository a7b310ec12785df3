import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { defaultRateLimits } from '../config.ts'
import {
  type CloudTestInstance,
  getCloudTestInstance,
  REDIRECT_TO,
  stateCode,
} from '../test/cloud.ts'

// Each consent costs a stored state and, for iCloud, a call to CloudKit with
// the app's API token: one user may start a bounded number of them.
let t: CloudTestInstance
beforeAll(async () => {
  t = await getCloudTestInstance({
    rateLimits: { cloudConsentsPerUser: { limit: 3, windowMs: 60_000 } },
  })
})
afterAll(() => t.close())

const initIcloud = (token: string) =>
  t.request(routes.recoveryOAuthInitIcloud, {
    token,
    body: { client_type: 'web', redirect_to: REDIRECT_TO, state_code: stateCode() },
  })

it('defaults to 20 consents per user per 10 minutes', () => {
  expect(defaultRateLimits.cloudConsentsPerUser).toEqual({ limit: 20, windowMs: 10 * 60_000 })
})

it('past the cap a user gets 429 TOO_MANY_REQUESTS (Google and iCloud together); others are unaffected; the window reopens', async () => {
  const alice = await t.userToken('alice@example.com')
  await t.googleConsent(alice)
  expect((await initIcloud(alice)).status).toBe(200)
  expect((await initIcloud(alice)).status).toBe(200)
  const before = await t.countRows('recovery_oauth_states')
  expect(await initIcloud(alice)).toMatchObject({
    status: 429,
    body: { code: 'TOO_MANY_REQUESTS' },
  })
  await expect(t.googleConsent(alice)).rejects.toThrow(/TOO_MANY_REQUESTS/)
  expect(await t.countRows('recovery_oauth_states')).toBe(before)
  const bob = await t.userToken('bob@example.com')
  expect((await initIcloud(bob)).status).toBe(200)
  t.clock.advance(60_000)
  expect((await initIcloud(alice)).status).toBe(200)
})
