import { MFA_MAX_CODE_ATTEMPTS } from '@latchkey/protocol/constants'
import { routes } from '@latchkey/protocol/routes'
import { describe, expect, it } from 'vitest'
import { FAKE_MFA_CODE, FAKE_PASSKEY_OPTIONS, sessionToken } from './fake-mfa.test-helper.ts'
import { createFakeServer } from './fake-server.test-helper.ts'
import { APP_ID, createHarness, HOST } from './harness.test-helper.ts'

// The enclave's MFA events (docs/mfa.md; protocol schemas/enclave.ts): each
// calls its enclave route with this page's proof and answers the host with
// the route's answer; a refusal reaches the host with the server's code,
// `details` and `retry_after`.
const token = sessionToken('user-alice', 'session-a')

function setup() {
  const server = createFakeServer({ appId: APP_ID })
  const h = createHarness({ fetch: server.fetch, ancestorOrigins: [HOST] })
  const ask = async (event: string, data: object) =>
    (await h.request(event, { access_token: token, ...data })).message
  /** The last call the fake server got: route, body, and whether it carried a proof. */
  const last = () => {
    const call = server.calls.at(-1)
    return { path: call?.path, body: call?.body, proof: call?.proof !== null }
  }
  return { server, h: { ...h, server }, ask, last }
}

describe('init-verify', () => {
  it('sms sends the code to the enrolled phone and answers {}', async () => {
    const { server, ask, last } = setup()
    server.mfa.enroll('user-alice', 'sms')
    const answer = await ask('latchkey:mfa:init-verify', { method: 'sms' })
    expect(answer).toMatchObject({ event: 'latchkey:mfa:init-verify:result', data: {} })
    expect(last()).toEqual({ path: routes.mfaSmsInit, body: { action: 'verify' }, proof: true })
  })

  it('passkey answers the assertion options', async () => {
    const { ask, last } = setup()
    const answer = await ask('latchkey:mfa:init-verify', { method: 'passkey' })
    expect(answer.data).toEqual(FAKE_PASSKEY_OPTIONS)
    expect(last()).toEqual({ path: routes.mfaPasskeyInit, body: {}, proof: true })
  })
})

describe('verify', () => {
  it('sends the request as is and answers the verification', async () => {
    const { server, ask, last } = setup()
    server.mfa.enroll('user-alice', 'totp')
    const request = { method: 'totp', code: FAKE_MFA_CODE }
    const answer = await ask('latchkey:mfa:verify', { request })
    expect(answer.data).toEqual({
      method: 'totp',
      verified_at: expect.any(Number),
      expires_at: expect.any(Number),
    })
    expect(last()).toEqual({ path: routes.mfaVerify, body: request, proof: true })
  })

  it('a wrong code is MFA_INVALID_CODE; past the cap, MFA_MAX_ATTEMPTS keeps retry_after for the host', async () => {
    const { server, ask } = setup()
    server.mfa.enroll('user-alice', 'totp')
    const wrong = { request: { method: 'totp', code: '000000' } }
    for (let i = 0; i < MFA_MAX_CODE_ATTEMPTS; i++) {
      const answer = await ask('latchkey:mfa:verify', wrong)
      expect(answer).toMatchObject({
        event: 'latchkey:mfa:verify:error',
        error: { code: 'MFA_INVALID_CODE' },
      })
    }
    const locked = await ask('latchkey:mfa:verify', {
      request: { method: 'totp', code: FAKE_MFA_CODE },
    })
    expect(locked.error).toEqual({
      code: 'MFA_MAX_ATTEMPTS',
      message: 'Too many attempts, try again in 15 minutes.',
      retry_after: 900,
    })
  })

  it('a request the schema refuses is never sent', async () => {
    const { h } = setup()
    h.deliver({
      id: 'x',
      event: 'latchkey:mfa:verify',
      data: { access_token: token, request: { method: 'totp', code: '12345' } },
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(h.server.calls).toHaveLength(0)
    expect(h.posted.filter((p) => p.message.id === 'x')).toHaveLength(0)
  })
})

describe('enrollment', () => {
  it('totp: init answers the setup key, submit the user and the verification', async () => {
    const { ask, last } = setup()
    const init = await ask('latchkey:mfa:init-enrollment', { request: { method: 'totp' } })
    expect(init.data).toEqual({ secret: 'JBSWY3DPEHPK3PXP', auth_url: 'otpauth://totp/x' })
    expect(last()).toEqual({ path: routes.mfaTotpInit, body: {}, proof: true })
    const submit = await ask('latchkey:mfa:submit-enrollment', {
      request: { method: 'totp', code: FAKE_MFA_CODE },
    })
    expect(submit.data).toMatchObject({
      user: { id: 'user-alice', mfa_methods: ['totp'] },
      verification: { method: 'totp' },
    })
    expect(last()).toEqual({
      path: routes.mfaTotpEnroll,
      body: { code: FAKE_MFA_CODE },
      proof: true,
    })
  })

  it('sms: init sends a code to the new phone ({}), submit confirms it', async () => {
    const { ask, last } = setup()
    const phone_number = '+14155550123'
    const init = await ask('latchkey:mfa:init-enrollment', {
      request: { method: 'sms', phone_number },
    })
    expect(init.data).toEqual({})
    expect(last()).toEqual({
      path: routes.mfaSmsInit,
      body: { action: 'enroll', phone_number },
      proof: true,
    })
    const submit = await ask('latchkey:mfa:submit-enrollment', {
      request: { method: 'sms', phone_number, code: FAKE_MFA_CODE },
    })
    expect(submit.data).toMatchObject({
      user: { mfa_methods: ['sms'] },
      verification: { method: 'sms' },
    })
    expect(last()).toEqual({
      path: routes.mfaSmsEnroll,
      body: { phone_number, code: FAKE_MFA_CODE },
      proof: true,
    })
  })

  it('passkey: submit enables the credentials and answers verification null', async () => {
    const { ask, last } = setup()
    const submit = await ask('latchkey:mfa:submit-enrollment', {
      request: { method: 'passkey', credential_ids: ['cred-1'] },
    })
    expect(submit.data).toMatchObject({ user: { mfa_methods: ['passkey'] }, verification: null })
    expect(last()).toEqual({
      path: routes.mfaPasskeyEnroll,
      body: { credential_ids: ['cred-1'] },
      proof: true,
    })
  })

  it('a second factor without a fresh verification is MFA_REQUIRED with the methods', async () => {
    const { server, ask } = setup()
    server.mfa.enroll('user-alice', 'totp')
    const answer = await ask('latchkey:mfa:init-enrollment', {
      request: { method: 'sms', phone_number: '+14155550123' },
    })
    expect(answer.error).toEqual({
      code: 'MFA_REQUIRED',
      message: 'MFA verification required',
      details: { mfa_methods: ['totp'] },
    })
  })
})

describe('unenroll and clear', () => {
  it('unenroll answers { user }', async () => {
    const { server, ask, last } = setup()
    server.mfa.enroll('user-alice', 'totp')
    server.mfa.verify('session-a')
    const answer = await ask('latchkey:mfa:unenroll', { request: { method: 'totp' } })
    expect(answer.data).toMatchObject({ user: { id: 'user-alice', mfa_methods: [] } })
    expect(last()).toEqual({ path: routes.mfaUnenroll, body: { method: 'totp' }, proof: true })
  })

  it('clear ends the window at the server and answers {}', async () => {
    const { server, ask, last } = setup()
    server.mfa.enroll('user-alice', 'totp')
    server.mfa.verify('session-a')
    const answer = await ask('latchkey:mfa:clear', {})
    expect(answer).toMatchObject({ event: 'latchkey:mfa:clear:result', data: {} })
    expect(last()).toEqual({ path: routes.mfaClear, body: {}, proof: true })
    expect(server.mfa.warmUntil('user-alice', 'session-a')).toBeNull()
  })
})

describe('MFA_REQUIRED from a key route', () => {
  it('a signature without a window reaches the host as MFA_REQUIRED with the methods', async () => {
    const { server, h, ask } = setup()
    const created = await ask('latchkey:wallets:create', {
      chain_types: ['ethereum'],
      recovery: { method: 'latchkey' },
    })
    const address = (created.data as { user: { linked_accounts: { address: string }[] } }).user
      .linked_accounts[0]?.address
    server.mfa.enroll('user-alice', 'totp')
    server.mfa.enroll('user-alice', 'passkey')
    const answer = await ask('latchkey:wallets:rpc', {
      entropy_id: address,
      chain_type: 'ethereum',
      wallet_index: 0,
      request: { method: 'personal_sign', params: ['hi', address] },
    })
    expect(answer).toEqual({
      id: expect.any(String),
      event: 'latchkey:wallets:rpc:error',
      error: {
        code: 'MFA_REQUIRED',
        message: 'MFA verification required',
        details: { mfa_methods: ['totp', 'passkey'] },
      },
    })
    expect(h.server.calls.at(-1)?.path).toBe(routes.embeddedWalletsAuthShare)
  })
})
