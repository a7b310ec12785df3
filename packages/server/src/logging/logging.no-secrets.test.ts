import { Header, routes, TOTP_PERIOD_S } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pkce, stateCode } from '../test/cloud.ts'
import { createClock, getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { totpCode } from '../test/mfa.ts'
import { startTestOidcProvider, type TestOidcProvider } from '../test/oidc.ts'
import { hdBody } from '../test/wallets.ts'
import { createJsonLogger } from './json-logger.ts'

// Issue 20 item 6, security bar 50: the JSON logs of representative flows, at
// level debug, hold none of the secrets those flows handled — codes, access,
// refresh and identity tokens, wallet shares and recovery keys, the TOTP
// secret and codes, the OAuth code, state and verifier — and every access
// line carries a request id. Codes are captured from the senders (as SMTP
// and Twilio deliver them): the dev mailbox and outbox print codes by design
// (dev only; docs/operations.md "Logs").
const REDIRECT_TO = `${TEST_ORIGIN}/login`
const lines: string[] = []
const logger = createJsonLogger({ level: 'debug', destination: { write: (l) => lines.push(l) } })
const mail: Record<string, string> = {}
const texts: Record<string, string> = {}
const codeIn = (text: string) => /\b(\d{6})\b/.exec(text)?.[1] ?? ''
// The OpenID Provider stamps its id_tokens with the real time: so does this server's clock.
const clock = createClock(Date.now())

let t: TestInstance
let oidc: TestOidcProvider
/** Every secret the flows below handled; none may appear in a log line. */
const secrets = new Set<string>()
const keep = (...values: Array<string | null | undefined>) => {
  for (const v of values) if (v) secrets.add(v)
}

type Auth = { token: string; refresh_token: string | null; identity_token: string | null }
const keepAuth = (auth: Auth) => keep(auth.token, auth.refresh_token, auth.identity_token)

async function emailLogin(email: string): Promise<Auth> {
  expect((await t.request(routes.emailInit, { body: { email } })).status).toBe(200)
  const code = mail[email] ?? ''
  keep(code)
  const auth = await t.request(routes.emailAuthenticate, {
    body: { email, code },
    headers: { [Header.enclaveKey]: t.enclaveKey.jkt },
  })
  expect(auth.status).toBe(200)
  keepAuth(auth.body)
  return auth.body
}

/** A key route as the enclave calls it, its proof stamped with this server's clock. */
const enclave = (path: string, token: string, body: object) =>
  t.enclaveRequest(path, { token, body, proof: { now: clock.now() } })

const json = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>)
const accessLines = () => json().filter((l) => l.msg === 'request')

beforeAll(async () => {
  oidc = await startTestOidcProvider({ redirectUris: [REDIRECT_TO] })
  t = await getTestInstance({
    logger,
    now: clock.now,
    emailSender: {
      kind: 'capture',
      send: async ({ to, text }) => {
        mail[to] = codeIn(text)
      },
    },
    smsSender: {
      kind: 'capture',
      send: async ({ to, body }) => {
        texts[to] = codeIn(body)
      },
    },
    oauth: { endpoints: { google: oidc.endpoints } },
    appSettings: {
      login_methods: { email: true, sms: true, google: true },
      mfa_methods: ['totp'],
    },
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'google',
    client_id: oidc.clientId,
    client_secret: oidc.clientSecret,
  })
  keep(oidc.clientSecret, t.appSecret)
})

afterAll(async () => {
  await t?.close()
  await oidc?.close()
})

describe('the JSON logs of real flows at level debug', () => {
  it('email and SMS codes, tokens and their rotation', async () => {
    const auth = await emailLogin('ada@example.com')
    // A wrong code too: refusals log, and must not echo what was typed.
    const wrong = await t.request(routes.emailAuthenticate, {
      body: { email: 'ada@example.com', code: '000000' },
    })
    expect(wrong.status).toBeGreaterThanOrEqual(400)
    // An incoming request id that is not a short plain token is replaced, not logged.
    const me = await t.request(routes.usersMe, {
      token: auth.token,
      headers: { 'x-request-id': `${'x'.repeat(65)}` },
    })
    expect(me.status).toBe(200)
    expect(me.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/)

    const phoneNumber = '+14155550123'
    expect((await t.request(routes.smsInit, { body: { phoneNumber } })).status).toBe(200)
    const smsCode = texts[phoneNumber] ?? ''
    keep(smsCode)
    const sms = await t.request(routes.smsAuthenticate, { body: { phoneNumber, code: smsCode } })
    expect(sms.status).toBe(200)
    keepAuth(sms.body)

    const rotated = await t.request(routes.sessionRefresh, {
      body: { refresh_token: auth.refresh_token },
    })
    expect(rotated.status).toBe(200)
    keepAuth(rotated.body)
    // Past the overlap, the spent token is reuse: the server revokes and warns, in the request.
    clock.advance(60_000)
    const reuse = await t.request(routes.sessionRefresh, {
      body: { refresh_token: auth.refresh_token },
      headers: { 'x-request-id': 'lb-7f3a:reuse.1' },
    })
    expect(reuse.status).toBe(401)
    expect(reuse.headers.get('x-request-id')).toBe('lb-7f3a:reuse.1')
    const warning = json().find((l) => l.level === 'warn' && String(l.msg).includes('reuse'))
    expect(warning?.request_id).toBe('lb-7f3a:reuse.1')
  })

  it('a wallet with its shares, and its auth share fetched back', async () => {
    const { token } = await emailLogin('grace@example.com')
    const body = hdBody({ solana: true })
    keep(body.auth_share, body.recovery.ciphertext)
    if (body.recovery.method === 'latchkey') keep(body.recovery.recovery_key)
    const created = await enclave(routes.embeddedWalletsCreate, token, body)
    expect(created.status).toBe(200)
    const share = await enclave(routes.embeddedWalletsAuthShare, token, {
      entropy_id: body.entropy_id,
    })
    expect(share.status).toBe(200)
    expect(share.body.auth_share).toBe(body.auth_share)
    const recovery = await enclave(routes.embeddedWalletsRecovery, token, {
      entropy_id: body.entropy_id,
    })
    expect(recovery.status).toBe(200)
    keep(JSON.stringify(recovery.body).match(/"recovery_key":"([^"]+)"/)?.[1])
  })

  it('an authenticator app enrolled and verified', async () => {
    const { token } = await emailLogin('barbara@example.com')
    const init = await enclave(routes.mfaTotpInit, token, {})
    expect(init.status).toBe(200)
    const secret: string = init.body.secret
    keep(secret, init.body.otpauth_url ?? init.body.uri)
    const code = await totpCode(secret, clock.now())
    keep(code)
    expect((await enclave(routes.mfaTotpEnroll, token, { code })).status).toBe(200)
    clock.advance(TOTP_PERIOD_S * 1000)
    const next = await totpCode(secret, clock.now())
    keep(next)
    const verify = await enclave(routes.mfaVerify, token, { method: 'totp', code: next })
    expect(verify.status).toBe(200)
  })

  it('an OAuth login: code, state and verifier', async () => {
    const { verifier, challenge } = pkce()
    const state = stateCode()
    keep(verifier, state)
    const init = await t.request(routes.oauthInit, {
      body: {
        provider: 'google',
        redirect_to: REDIRECT_TO,
        code_challenge: challenge,
        state_code: state,
      },
    })
    expect(init.status).toBe(200)
    const back = await oidc.authorize(init.body.url)
    keep(back.searchParams.get('code'))
    const login = await t.request(routes.oauthAuthenticate, {
      body: {
        provider: 'google',
        authorization_code: back.searchParams.get('code'),
        state_code: back.searchParams.get('state'),
        code_verifier: verifier,
        mode: 'login-or-sign-up',
      },
    })
    expect(login.status).toBe(200)
    keepAuth(login.body)
    // A secret in a query string (where OAuth callbacks put theirs) stays out of the log.
    const planted = `planted-${stateCode()}`
    keep(planted)
    await t.request(`${routes.appConfig(t.app.id)}?code=${planted}&state=${planted}`)
  })

  it('hold none of those secrets, and each access line has a request id', () => {
    expect(secrets.size).toBeGreaterThan(20)
    expect(lines.length).toBeGreaterThan(20)
    for (const line of lines) for (const secret of secrets) expect(line).not.toContain(secret)
    const access = accessLines()
    expect(access.length).toBeGreaterThanOrEqual(20)
    for (const line of access) {
      expect(line.request_id).toMatch(/^[A-Za-z0-9._:-]{1,64}$/)
      expect(line.route).not.toContain('?')
      expect(line).toEqual(
        expect.objectContaining({ method: expect.any(String), status: expect.any(Number) }),
      )
    }
    expect(new Set(access.map((l) => l.request_id)).size).toBe(access.length)
  })
})
