import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/browser'
import { describe, expect, it, vi } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { getRecentLoginMethod } from '../recent-login.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, authResponse, createFakeFetch, json, wireUser } from '../test/fake-server.ts'
import {
  createPasskeyFlow,
  linkPasskey,
  loginWithPasskey,
  type PasskeyCeremonies,
  type PasskeyFlowState,
  signupWithPasskey,
  unlinkPasskey,
} from './passkey.ts'

function setup(handler: Parameters<typeof createFakeFetch>[0]) {
  const fake = createFakeFetch(handler)
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: fake.fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
    http: { sleep: async () => {}, maxRetries: 0 },
  })
  return { client, calls: fake.calls }
}
const exp = Math.floor(Date.now() / 1000) + 3600

const attestation: RegistrationResponseJSON = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  response: { clientDataJSON: 'cdj', attestationObject: 'ao', transports: ['internal'] },
  clientExtensionResults: {},
}
const assertion: AuthenticationResponseJSON = {
  id: 'cred-1',
  rawId: 'cred-1',
  type: 'public-key',
  response: { clientDataJSON: 'cdj', authenticatorData: 'ad', signature: 'sig', userHandle: 'uh' },
  clientExtensionResults: {},
}
const init = (challenge = 'challenge-1') => ({
  relying_party: 'app.test',
  options: { challenge, rpId: 'app.test', timeout: 60_000 },
})
const passkeyAccount = {
  type: 'passkey',
  credential_id: 'cred-1',
  authenticator_name: 'Chrome on Mac',
  created_with_browser: 'Chrome',
  created_with_os: 'macOS',
  created_with_device: null,
  enrolled_in_mfa: false,
  verified_at: 1_700_000_000,
  first_verified_at: 1_700_000_000,
  latest_verified_at: 1_700_000_000,
}
const withPasskey = { ...wireUser(), linked_accounts: [passkeyAccount] }

/** Ceremonies that answer at once; each method is a spy to inspect or replace. */
function fakeCeremonies(overrides: Partial<PasskeyCeremonies> = {}) {
  return {
    isSupported: vi.fn(() => true),
    create: vi.fn(async () => attestation),
    get: vi.fn(async () => assertion),
    cancel: vi.fn(),
    ...overrides,
  } satisfies PasskeyCeremonies
}

/** The login / register / link server, answering by path. */
const server = (call: { url: string }) => {
  if (call.url.endsWith('/init')) return json(200, init())
  if (call.url.endsWith('/passkeys/link') || call.url.endsWith('/passkeys/unlink'))
    return json(200, withPasskey)
  return json(200, authResponse({ exp }))
}

describe('loginWithPasskey / signupWithPasskey', () => {
  it('logs in: init with the captcha token, the browser assertion, then authenticate with challenge and mode', async () => {
    const { client, calls } = setup(server)
    client.setCaptchaTokenProvider(async () => 'captcha-1')
    const ceremonies = fakeCeremonies()
    const steps: string[] = []
    const result = await loginWithPasskey(client, {
      mode: 'no-signup',
      ceremonies,
      onStep: (step) => steps.push(step),
    })
    expect(steps).toEqual(['generating-challenge', 'awaiting-passkey', 'submitting-response'])
    expect(ceremonies.get).toHaveBeenCalledWith(init().options)
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      ['http://api.test/api/v1/passkeys/authenticate/init', { token: 'captcha-1' }],
      [
        'http://api.test/api/v1/passkeys/authenticate',
        {
          relying_party: 'app.test',
          challenge: 'challenge-1',
          authenticator_response: assertion,
          mode: 'no-signup',
        },
      ],
    ])
    expect(result.isNewUser).toBe(false)
    expect(client.session.getState().status).toBe('authenticated')
    expect(getRecentLoginMethod(client.storage, APP_ID)).toBe('passkey')
  })

  it('signs up: register/init (no token without a captcha), the attestation, then register', async () => {
    const { client, calls } = setup(server)
    const ceremonies = fakeCeremonies()
    await signupWithPasskey(client, { ceremonies })
    expect(ceremonies.create).toHaveBeenCalledWith(init().options)
    expect(calls.map((c) => [c.url, c.body])).toEqual([
      ['http://api.test/api/v1/passkeys/register/init', {}],
      [
        'http://api.test/api/v1/passkeys/register',
        { relying_party: 'app.test', authenticator_response: attestation },
      ],
    ])
    expect(client.session.getState().status).toBe('authenticated')
  })

  it('refuses without WebAuthn before asking the server anything', async () => {
    const { client, calls } = setup(server)
    const ceremonies = fakeCeremonies({ isSupported: () => false })
    await expect(loginWithPasskey(client, { ceremonies })).rejects.toMatchObject({
      code: 'WEBAUTHN_UNSUPPORTED',
    })
    expect(calls).toHaveLength(0)
  })

  it("translates the browser's refusal, and sends nothing more", async () => {
    const { client, calls } = setup(server)
    const ceremonies = fakeCeremonies({
      get: async () => {
        throw new DOMException('timed out or not allowed', 'NotAllowedError')
      },
    })
    await expect(loginWithPasskey(client, { ceremonies })).rejects.toMatchObject({
      code: 'PASSKEY_FAILED',
    })
    expect(calls).toHaveLength(1)
  })
})

describe('linkPasskey / unlinkPasskey', () => {
  it('links with the session token and updates the user, then unlinks by credential id', async () => {
    const { client, calls } = setup(server)
    const ceremonies = fakeCeremonies()
    await loginWithPasskey(client, { ceremonies })
    const user = await linkPasskey(client, { ceremonies })
    expect(user.linkedAccounts).toEqual([
      expect.objectContaining({ type: 'passkey', credentialId: 'cred-1', createdWithOs: 'macOS' }),
    ])
    expect(calls[2]).toMatchObject({ url: 'http://api.test/api/v1/passkeys/link/init', body: {} })
    expect(calls[3]).toMatchObject({
      url: 'http://api.test/api/v1/passkeys/link',
      body: { relying_party: 'app.test', authenticator_response: attestation },
    })
    expect(calls[3]?.headers.authorization).toMatch(/^Bearer /)
    expect(client.session.getState().user).toBe(user)

    await unlinkPasskey(client, { credentialId: 'cred-1' })
    expect(calls[4]).toMatchObject({
      url: 'http://api.test/api/v1/passkeys/unlink',
      body: { credential_id: 'cred-1' },
    })
    // Not enrolled in MFA: removeAsMfa has nothing to remove, the unlink is plain.
    await unlinkPasskey(client, { credentialId: 'cred-1', removeAsMfa: true })
    expect(calls[5]?.body).toEqual({ credential_id: 'cred-1' })
  })

  it('needs a logged-in user', async () => {
    const { client, calls } = setup(server)
    await expect(linkPasskey(client, { ceremonies: fakeCeremonies() })).rejects.toMatchObject({
      code: 'NOT_AUTHENTICATED',
    })
    expect(calls).toHaveLength(0)
  })
})

describe('createPasskeyFlow', () => {
  const record = (flow: ReturnType<typeof createPasskeyFlow>) => {
    const states: PasskeyFlowState['status'][] = []
    flow.subscribe(() => states.push(flow.getState().status))
    return states
  }

  it('moves generating-challenge → awaiting-passkey → submitting-response → done', async () => {
    const { client } = setup(server)
    const flow = createPasskeyFlow(client, { ceremonies: fakeCeremonies() })
    const states = record(flow)
    expect(flow.getState()).toEqual({ status: 'initial' })
    await flow.login()
    expect(states).toEqual([
      'generating-challenge',
      'awaiting-passkey',
      'submitting-response',
      'done',
    ])
    expect(flow.getState()).toMatchObject({ status: 'done', action: 'login', isNewUser: false })
  })

  it('sends mode no-signup when sign-up is disabled', async () => {
    const { client, calls } = setup(server)
    await createPasskeyFlow(client, { disableSignup: true, ceremonies: fakeCeremonies() }).login()
    expect(calls[1]?.body).toMatchObject({ mode: 'no-signup' })
  })

  it('ends in a retryable error on a refused prompt; Retry runs the same action again', async () => {
    const { client, calls } = setup(server)
    const create = vi
      .fn<PasskeyCeremonies['create']>()
      .mockRejectedValueOnce(new DOMException('no', 'NotAllowedError'))
      .mockResolvedValueOnce(attestation)
    const flow = createPasskeyFlow(client, { ceremonies: fakeCeremonies({ create }) })
    await flow.signup()
    const failed = flow.getState()
    expect(failed).toMatchObject({ status: 'error', action: 'signup', retryable: true })
    expect(failed.status === 'error' && failed.error.userMessage.title).toBe(
      'Passkey request timed out or rejected by user.',
    )
    await flow.retry()
    expect(flow.getState()).toMatchObject({ status: 'done', action: 'signup' })
    expect(calls.filter((c) => c.url.endsWith('/register/init'))).toHaveLength(2)
  })

  it("ends in a non-retryable error on the server's link limit", async () => {
    const { client } = setup((call) => {
      if (call.url.endsWith('/passkeys/link'))
        return json(400, {
          code: 'PASSKEY_LINK_LIMIT',
          message: 'Cannot link more passkeys to account.',
        })
      return server(call)
    })
    const ceremonies = fakeCeremonies()
    await loginWithPasskey(client, { ceremonies })
    const flow = createPasskeyFlow(client, { ceremonies })
    await flow.link()
    const state = flow.getState()
    expect(state).toMatchObject({ status: 'error', action: 'link', retryable: false })
    expect(state.status === 'error' && state.error.code).toBe('PASSKEY_LINK_LIMIT')
    expect(state.status === 'error' && state.error.userMessage.title).toBe(
      'Cannot link more passkeys to account.',
    )
  })

  it('WebAuthn missing → error WEBAUTHN_UNSUPPORTED, not retryable', async () => {
    const { client } = setup(server)
    const flow = createPasskeyFlow(client, {
      ceremonies: fakeCeremonies({ isSupported: () => false }),
    })
    await flow.login()
    expect(flow.getState()).toMatchObject({ status: 'error', retryable: false })
    const state = flow.getState()
    expect(state.status === 'error' && state.error.userMessage.title).toBe(
      'WebAuthn is not supported in this browser',
    )
  })

  it('reset() dismisses the prompt under way and ignores its outcome', async () => {
    const { client, calls } = setup(server)
    let answer: (value: AuthenticationResponseJSON) => void = () => {}
    const ceremonies = fakeCeremonies({
      get: () => new Promise((resolve) => (answer = resolve)),
    })
    const flow = createPasskeyFlow(client, { ceremonies })
    const pending = flow.login()
    await vi.waitFor(() => expect(flow.getState().status).toBe('awaiting-passkey'))
    flow.reset()
    expect(ceremonies.cancel).toHaveBeenCalledTimes(1)
    expect(flow.getState()).toEqual({ status: 'initial' })
    answer(assertion)
    await pending
    expect(flow.getState()).toEqual({ status: 'initial' })
    expect(calls).toHaveLength(1) // no authenticate call after the reset
    expect(client.session.getState().status).not.toBe('authenticated')
  })

  it('a reset before the challenge arrives never opens the prompt', async () => {
    const { client } = setup(server)
    const ceremonies = fakeCeremonies()
    const flow = createPasskeyFlow(client, { ceremonies })
    const pending = flow.login()
    flow.reset()
    await pending
    expect(ceremonies.get).not.toHaveBeenCalled()
    expect(flow.getState()).toEqual({ status: 'initial' })
  })
})
