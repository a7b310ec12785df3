import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../../test/instance.ts'
import { PASSKEY_CHALLENGE_TTL_MS } from './schema.ts'
import {
  failureReason,
  PASSKEY_APP_SETTINGS,
  passkeyAssertionBody,
  passkeyCreate,
  passkeyInit,
  SoftwareAuthenticator,
} from './testing.ts'

// Security bar 23 (WebAuthn §13.4.3): challenges are ≥ 16 random bytes,
// issued and stored by the server, single use, short-lived, and bound to
// one app, one purpose, the page they were issued for and (link) one user.
let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: PASSKEY_APP_SETTINGS })
})
afterAll(() => t.close())

const authenticate = (body: unknown, options: { appId?: string; origin?: string } = {}) =>
  t.request(routes.passkeyAuthenticate, { body, origin: options.origin ?? TEST_ORIGIN, ...options })

/** A user with a passkey, and the passkey. */
async function passkeyUser() {
  const authenticator = new SoftwareAuthenticator()
  const signUp = await passkeyCreate(t, authenticator)
  expect(signUp.status).toBe(200)
  return authenticator
}

describe('passkey challenge', () => {
  it('is at least 16 random bytes, fresh on every init, and stored with its binding', async () => {
    const seen = new Set<string>()
    for (const path of [routes.passkeyRegisterInit, routes.passkeyAuthenticateInit]) {
      for (let i = 0; i < 3; i++) {
        const { options } = await passkeyInit(t, path)
        expect(Buffer.from(options.challenge, 'base64url').length).toBeGreaterThanOrEqual(16)
        seen.add(options.challenge)
        const row = await t.db
          .selectFrom('passkey_challenges')
          .selectAll()
          .where('challenge', '=', options.challenge)
          .executeTakeFirstOrThrow()
        expect(row).toMatchObject({
          app_id: t.app.id,
          purpose: path === routes.passkeyRegisterInit ? 'register' : 'authenticate',
          rp_id: 'app.test',
          origin: TEST_ORIGIN,
          used_at: null,
        })
        expect(Number(row.expires_at) - Number(row.created_at)).toBe(PASSKEY_CHALLENGE_TTL_MS)
      }
    }
    expect(seen.size).toBe(6)
  })

  it('must have been issued by this server', async () => {
    const authenticator = await passkeyUser()
    const made = Buffer.alloc(32, 7).toString('base64url')
    const res = await authenticate(
      passkeyAssertionBody(authenticator, {
        relying_party: 'app.test',
        options: { challenge: made },
      }),
    )
    expect(res).toMatchObject({ status: 400, body: { code: 'PASSKEY_VERIFICATION_FAILED' } })
    expect(failureReason(res)).toBe('challenge_unknown')
  })

  it('is spent by a login: the same assertion can not log in again', async () => {
    const authenticator = await passkeyUser()
    const init = await passkeyInit(t, routes.passkeyAuthenticateInit)
    const body = passkeyAssertionBody(authenticator, init)
    expect((await authenticate(body)).status).toBe(200)
    expect(failureReason(await authenticate(body))).toBe('challenge_used')
  })

  it('is spent by a sign-up: the same registration can not be replayed', async () => {
    const init = await passkeyInit(t, routes.passkeyRegisterInit)
    const body = {
      relying_party: init.relying_party,
      authenticator_response: new SoftwareAuthenticator().create({
        rpId: init.relying_party,
        challenge: init.options.challenge,
        origin: TEST_ORIGIN,
      }),
    }
    const first = await t.request(routes.passkeyRegister, { body, origin: TEST_ORIGIN })
    expect(first.status).toBe(200)
    const replay = await t.request(routes.passkeyRegister, { body, origin: TEST_ORIGIN })
    expect(failureReason(replay)).toBe('challenge_used')
  })

  it('two concurrent submissions of one assertion yield exactly one session', async () => {
    const authenticator = await passkeyUser()
    const init = await passkeyInit(t, routes.passkeyAuthenticateInit)
    const body = passkeyAssertionBody(authenticator, init)
    const sessions = await t.countRows('sessions')
    const results = await Promise.all([authenticate(body), authenticate(body)])
    expect(results.map((r) => r.status).sort()).toEqual([200, 400])
    expect(failureReason(results.find((r) => r.status === 400) as never)).toBe('challenge_used')
    expect(await t.countRows('sessions')).toBe(sessions + 1)
  })

  it('is not spent by a refused response', async () => {
    const authenticator = await passkeyUser()
    const init = await passkeyInit(t, routes.passkeyAuthenticateInit)
    const refused = await authenticate(passkeyAssertionBody(authenticator, init, { uv: false }))
    expect(failureReason(refused)).toBe('user_verification')
    expect((await authenticate(passkeyAssertionBody(authenticator, init))).status).toBe(200)
  })

  it(`expires ${PASSKEY_CHALLENGE_TTL_MS / 60_000} minutes after init`, async () => {
    const authenticator = await passkeyUser()
    const init = await passkeyInit(t, routes.passkeyAuthenticateInit)
    t.clock.advance(PASSKEY_CHALLENGE_TTL_MS - 1)
    const body = passkeyAssertionBody(authenticator, init)
    const late = await passkeyInit(t, routes.passkeyAuthenticateInit)
    t.clock.advance(1)
    expect(failureReason(await authenticate(body))).toBe('challenge_expired')
    // A challenge still in its window works.
    expect((await authenticate(passkeyAssertionBody(authenticator, late))).status).toBe(200)
  })

  it('is bound to its purpose: a sign-up challenge can not log in, nor a login one sign up', async () => {
    const authenticator = await passkeyUser()
    const register = await passkeyInit(t, routes.passkeyRegisterInit)
    expect(failureReason(await authenticate(passkeyAssertionBody(authenticator, register)))).toBe(
      'challenge_unknown',
    )
    const login = await passkeyInit(t, routes.passkeyAuthenticateInit)
    const res = await t.request(routes.passkeyRegister, {
      body: {
        relying_party: login.relying_party,
        authenticator_response: new SoftwareAuthenticator().create({
          rpId: login.relying_party,
          challenge: login.options.challenge,
          origin: TEST_ORIGIN,
        }),
      },
      origin: TEST_ORIGIN,
    })
    expect(failureReason(res)).toBe('challenge_unknown')
  })

  it('is bound to its app', async () => {
    const other = await t.createApp(PASSKEY_APP_SETTINGS)
    const authenticator = new SoftwareAuthenticator()
    expect((await passkeyCreate(t, authenticator, { appId: other.id })).status).toBe(200)
    const init = await passkeyInit(t, routes.passkeyAuthenticateInit)
    const res = await authenticate(passkeyAssertionBody(authenticator, init), { appId: other.id })
    expect(failureReason(res)).toBe('challenge_unknown')
  })

  it('is bound to the relying party and page it was issued for', async () => {
    const other = 'http://other.test'
    const app = await t.createApp(PASSKEY_APP_SETTINGS, [TEST_ORIGIN, other])
    const authenticator = new SoftwareAuthenticator()
    expect((await passkeyCreate(t, authenticator, { appId: app.id })).status).toBe(200)

    const init = await passkeyInit(t, routes.passkeyAuthenticateInit, { appId: app.id })
    const body = passkeyAssertionBody(authenticator, init)
    const wrongRp = await authenticate({ ...body, relying_party: 'other.test' }, { appId: app.id })
    expect(failureReason(wrongRp)).toBe('relying_party_mismatch')
    const wrongPage = await authenticate(body, { appId: app.id, origin: other })
    expect(failureReason(wrongPage)).toBe('relying_party_mismatch')
    expect((await authenticate(body, { appId: app.id })).status).toBe(200)
  })

  it('is bound to the exact origin, not only its host', async () => {
    const port = 'http://app.test:8080'
    const app = await t.createApp(PASSKEY_APP_SETTINGS, [TEST_ORIGIN, port])
    const authenticator = new SoftwareAuthenticator()
    expect((await passkeyCreate(t, authenticator, { appId: app.id })).status).toBe(200)
    const init = await passkeyInit(t, routes.passkeyAuthenticateInit, { appId: app.id })
    const body = passkeyAssertionBody(authenticator, init)
    expect(failureReason(await authenticate(body, { appId: app.id, origin: port }))).toBe(
      'origin_mismatch',
    )
  })
})
