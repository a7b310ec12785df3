import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../../test/instance.ts'
import { authenticatorName } from './authenticators.ts'
import {
  CHROME_MAC_UA,
  failureReason,
  ICLOUD_KEYCHAIN_AAGUID,
  PASSKEY_APP_SETTINGS,
  passkeyCreate,
  passkeyInit,
  passkeyLogin,
  SoftwareAuthenticator,
  TEST_RP_ID,
} from './testing.ts'
import { parseUserAgent } from './user-agent.ts'

/*
 * Passkey sign-up, login, link (up to 5), unlink, and the passkey account's
 * wire fields (spec 01 §4 "Passkey", §5, §7; spec 02 "Passkey management").
 */

let t: TestInstance
beforeAll(async () => {
  t = await getTestInstance({ appSettings: PASSKEY_APP_SETTINGS })
})
afterAll(() => t.close())

const unlink = (credentialId: string, token: string | null) =>
  t.request(routes.passkeyUnlink, {
    body: { credential_id: credentialId },
    token: token ?? undefined,
    origin: TEST_ORIGIN,
  })

describe('passkey sign-up and login', () => {
  it('register/init asks for a discoverable, user-verified credential bound to the page host', async () => {
    const init = await passkeyInit(t, routes.passkeyRegisterInit)
    expect(init.relying_party).toBe(TEST_RP_ID)
    expect(init.options).toMatchObject({
      rp: { id: TEST_RP_ID, name: 'Test App' },
      attestation: 'none',
      timeout: 300_000,
      authenticatorSelection: {
        residentKey: 'required',
        requireResidentKey: true,
        userVerification: 'required',
      },
      excludeCredentials: [],
    })
    expect((init.options.user as { id: string }).id).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it('signs up with a new passkey, then logs in with it as the same user', async () => {
    const authenticator = new SoftwareAuthenticator({ aaguid: ICLOUD_KEYCHAIN_AAGUID })
    const signUp = await passkeyCreate(t, authenticator, { userAgent: CHROME_MAC_UA })
    expect(signUp.status).toBe(200)
    expect(signUp.body).toMatchObject({ is_new_user: true, session_update_action: 'set' })
    expect(signUp.body.user.linked_accounts).toEqual([
      {
        type: 'passkey',
        credential_id: authenticator.id,
        authenticator_name: 'iCloud Keychain',
        created_with_browser: 'Chrome',
        created_with_os: 'macOS',
        created_with_device: 'Desktop',
        enrolled_in_mfa: false,
        verified_at: expect.any(Number),
        first_verified_at: expect.any(Number),
        latest_verified_at: expect.any(Number),
      },
    ])
    // Public key and counter never leave the server.
    expect(JSON.stringify(signUp.body)).not.toContain('public_key')

    t.clock.advance(60_000)
    const login = await passkeyLogin(t, authenticator)
    expect(login.status).toBe(200)
    expect(login.body).toMatchObject({ is_new_user: false, user: { id: signUp.body.user.id } })
    const [account] = login.body.user.linked_accounts
    expect(account.latest_verified_at).toBe(account.first_verified_at + 60)
  })

  it('authenticate/init offers no credentials (the browser picks a discoverable one)', async () => {
    const init = await passkeyInit(t, routes.passkeyAuthenticateInit)
    expect(init).toMatchObject({
      relying_party: TEST_RP_ID,
      options: { rpId: TEST_RP_ID, userVerification: 'required', allowCredentials: [] },
    })
  })

  it('an unknown passkey can not log in', async () => {
    const res = await passkeyLogin(t, new SoftwareAuthenticator())
    expect(res).toMatchObject({ status: 400, body: { code: 'PASSKEY_VERIFICATION_FAILED' } })
    expect(failureReason(res)).toBe('credential_unknown')
  })

  it("'no-signup' mode logs existing passkey users in and never creates one", async () => {
    const authenticator = new SoftwareAuthenticator()
    const signUp = await passkeyCreate(t, authenticator)
    const users = await t.countRows('users')
    const login = await passkeyLogin(t, authenticator, { mode: 'no-signup' })
    expect(login.body).toMatchObject({ is_new_user: false, user: { id: signUp.body.user.id } })
    const stranger = await passkeyLogin(t, new SoftwareAuthenticator(), { mode: 'no-signup' })
    expect(stranger.body.code).toBe('PASSKEY_VERIFICATION_FAILED')
    expect(await t.countRows('users')).toBe(users)
  })

  it('needs the Origin of an app page', async () => {
    const noOrigin = await t.request(routes.passkeyRegisterInit, { body: {}, origin: null })
    expect(noOrigin).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
    expect(noOrigin.body.message).toMatch(/Origin/)
    // The server's own origin passes the app check but hosts no app page.
    const own = await t.request(routes.passkeyAuthenticateInit, {
      body: {},
      origin: 'http://latchkey.test',
    })
    expect(own.body.code).toBe('ORIGIN_NOT_ALLOWED')
  })

  it('validates payloads', async () => {
    const res = await t.request(routes.passkeyAuthenticate, {
      body: { relying_party: TEST_RP_ID, challenge: 'not base64url!', authenticator_response: {} },
      origin: TEST_ORIGIN,
    })
    expect(res).toMatchObject({ status: 400, body: { code: 'INVALID_PAYLOAD' } })
  })
})

describe('passkey login method switch', () => {
  it('every passkey route but unlink answers LOGIN_METHOD_NOT_ALLOWED when passkeys are off', async () => {
    const off = await t.createApp({ login_methods: { email: true, passkey: false } })
    for (const path of [
      routes.passkeyRegisterInit,
      routes.passkeyAuthenticateInit,
      routes.passkeyRegister,
    ]) {
      const res = await t.request(path, {
        body:
          path === routes.passkeyRegister
            ? {
                relying_party: TEST_RP_ID,
                authenticator_response: new SoftwareAuthenticator().create({
                  rpId: TEST_RP_ID,
                  challenge: 'AAAA',
                  origin: TEST_ORIGIN,
                }),
              }
            : {},
        origin: TEST_ORIGIN,
        appId: off.id,
      })
      expect(res.body.code, path).toBe('LOGIN_METHOD_NOT_ALLOWED')
    }
    const session = await t.login('off@example.com', { appId: off.id })
    const link = await t.request(routes.passkeyLinkInit, {
      body: {},
      token: session.token ?? undefined,
      origin: TEST_ORIGIN,
      appId: off.id,
    })
    expect(link.body.code).toBe('LOGIN_METHOD_NOT_ALLOWED')
  })
})

describe('passkey link and unlink', () => {
  it('links up to 5 passkeys; the 6th is refused at init and at link', async () => {
    const session = await t.login('five@example.com')
    const authenticators = Array.from({ length: 6 }, () => new SoftwareAuthenticator())
    for (const [i, authenticator] of authenticators.slice(0, 5).entries()) {
      const res = await passkeyCreate(t, authenticator, { link: true, token: session.token })
      expect(res.status, `passkey ${i + 1}`).toBe(200)
      expect(res.body.id).toBe(session.user.id)
    }
    const init = await t.request(routes.passkeyLinkInit, {
      body: {},
      token: session.token ?? undefined,
      origin: TEST_ORIGIN,
    })
    expect(init).toMatchObject({
      status: 400,
      body: { code: 'PASSKEY_LINK_LIMIT', message: 'Cannot link more passkeys to account.' },
    })
    const me = await t.request(routes.usersMe, {
      token: session.token ?? undefined,
      origin: TEST_ORIGIN,
    })
    const passkeys = me.body.user.linked_accounts.filter(
      (a: { type: string }) => a.type === 'passkey',
    )
    expect(passkeys).toHaveLength(5)
    // Each linked passkey logs in as the user.
    const login = await passkeyLogin(t, authenticators[2] as SoftwareAuthenticator)
    expect(login.body.user.id).toBe(session.user.id)
  })

  it('checks the limit again at link: challenges issued before the 5th can not add a 6th', async () => {
    const session = await t.login('race@example.com')
    for (let i = 0; i < 4; i++)
      await passkeyCreate(t, new SoftwareAuthenticator(), { link: true, token: session.token })
    const inits = await Promise.all(
      [0, 1].map(() => passkeyInit(t, routes.passkeyLinkInit, { token: session.token })),
    )
    const results = await Promise.all(
      inits.map((init) => {
        const authenticator = new SoftwareAuthenticator()
        return t.request(routes.passkeyLink, {
          body: {
            relying_party: init.relying_party,
            authenticator_response: authenticator.create({
              rpId: init.relying_party,
              challenge: init.options.challenge,
              origin: TEST_ORIGIN,
            }),
          },
          token: session.token ?? undefined,
          origin: TEST_ORIGIN,
        })
      }),
    )
    expect(results.map((r) => r.body.code ?? r.status).sort()).toEqual([200, 'PASSKEY_LINK_LIMIT'])
  })

  it('link/init excludes the passkeys the user has and keeps their user handle', async () => {
    const session = await t.login('exclude@example.com')
    const first = new SoftwareAuthenticator()
    await passkeyCreate(t, first, { link: true, token: session.token })
    const init = await passkeyInit(t, routes.passkeyLinkInit, { token: session.token })
    expect(init.options.excludeCredentials).toEqual([
      { id: first.id, type: 'public-key', transports: ['internal', 'hybrid'] },
    ])
    expect((init.options.user as { id: string; name: string }).id).toBe(first.userHandle)
    expect((init.options.user as { name: string }).name).toBe('exclude@example.com')
  })

  it('needs a signed-in user', async () => {
    const res = await t.request(routes.passkeyLinkInit, { body: {}, origin: TEST_ORIGIN })
    expect(res.status).toBe(401)
  })

  it('a link challenge is bound to the user it was issued to', async () => {
    const alice = await t.login('alice-pk@example.com')
    const bob = await t.login('bob-pk@example.com')
    const init = await passkeyInit(t, routes.passkeyLinkInit, { token: alice.token })
    const res = await t.request(routes.passkeyLink, {
      body: {
        relying_party: init.relying_party,
        authenticator_response: new SoftwareAuthenticator().create({
          rpId: init.relying_party,
          challenge: init.options.challenge,
          origin: TEST_ORIGIN,
        }),
      },
      token: bob.token ?? undefined,
      origin: TEST_ORIGIN,
    })
    expect(failureReason(res)).toBe('challenge_unknown')
  })

  it('unlinks a passkey; the last login method stays', async () => {
    const authenticator = new SoftwareAuthenticator()
    const signUp = await passkeyCreate(t, authenticator)
    const token = signUp.body.token
    const last = await unlink(authenticator.id, token)
    expect(last).toMatchObject({ status: 400, body: { code: 'CANNOT_UNLINK_LAST_ACCOUNT' } })

    const second = new SoftwareAuthenticator()
    expect((await passkeyCreate(t, second, { link: true, token })).status).toBe(200)
    const res = await unlink(authenticator.id, token)
    expect(res.status).toBe(200)
    expect(res.body.linked_accounts.map((a: { credential_id: string }) => a.credential_id)).toEqual(
      [second.id],
    )
    const login = await passkeyLogin(t, authenticator)
    expect(failureReason(login)).toBe('credential_unknown')
    expect((await unlink(authenticator.id, token)).body.code).toBe('ACCOUNT_NOT_LINKED')
  })

  it("can not unlink another user's passkey", async () => {
    const owner = new SoftwareAuthenticator()
    await passkeyCreate(t, owner)
    const session = await t.login('thief@example.com')
    expect((await unlink(owner.id, session.token)).body.code).toBe('ACCOUNT_NOT_LINKED')
  })

  it('refuses to unlink a passkey enrolled in MFA', async () => {
    const session = await t.login('mfa@example.com')
    const authenticator = new SoftwareAuthenticator()
    await passkeyCreate(t, authenticator, { link: true, token: session.token })
    const row = await t.db
      .selectFrom('linked_accounts')
      .select(['id', 'data'])
      .where('identifier', '=', authenticator.id)
      .executeTakeFirstOrThrow()
    await t.db
      .updateTable('linked_accounts')
      .set({ data: JSON.stringify({ ...JSON.parse(row.data), enrolled_in_mfa: true }) })
      .where('id', '=', row.id)
      .execute()
    const res = await unlink(authenticator.id, session.token)
    expect(res).toMatchObject({ status: 400, body: { code: 'PASSKEY_ENROLLED_IN_MFA' } })
    const me = await t.request(routes.usersMe, {
      token: session.token ?? undefined,
      origin: TEST_ORIGIN,
    })
    expect(me.body.user.linked_accounts[1]).toMatchObject({
      type: 'passkey',
      enrolled_in_mfa: true,
    })
  })
})

describe('passkey labels', () => {
  it('names well-known authenticators by AAGUID, and nothing else', () => {
    expect(authenticatorName('EA9B8D66-4D01-1D21-3CE4-B6B48CB575D4')).toBe(
      'Google Password Manager',
    )
    expect(authenticatorName('08987058-cadc-4b81-b6e1-30de50dcbe96')).toBe('Windows Hello')
    expect(authenticatorName('bada5566-a7aa-401f-bd96-45619a55120d')).toBe('1Password')
    expect(authenticatorName('00000000-0000-0000-0000-000000000000')).toBeNull()
    expect(authenticatorName('12345678-1234-1234-1234-123456789abc')).toBeNull()
  })

  it.each([
    [CHROME_MAC_UA, 'Chrome', 'macOS', 'Desktop'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      'Safari',
      'iOS',
      'iPhone',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      'Edge',
      'Windows',
      'Desktop',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      'Chrome',
      'Android',
      'Phone',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64; rv:127.0) Gecko/20100101 Firefox/127.0',
      'Firefox',
      'Linux',
      'Desktop',
    ],
    ['curl/8.0', null, null, null],
  ])('parses %s', (ua, browser, os, device) => {
    expect(parseUserAgent(ua)).toEqual({ browser, os, device })
  })
})
