import { describe, expect, it, vi } from 'vitest'
import type { LatchkeyClient } from '../client.ts'
import type { EnclaveBridge } from '../enclave/bridge.ts'
import { LatchkeyError } from '../errors.ts'
import { type PasskeyCeremonies, unlinkPasskey } from '../flows/passkey.ts'
import type { User } from '../user.ts'
import { attachEnclave } from '../wallets/enclave.ts'
import {
  ensureMfaVerified,
  initTotpEnrollment,
  submitMfaEnrollment,
  unenrollMfa,
  verifyMfa,
} from './mfa.ts'
import { getMfaPrompter } from './prompter.ts'

const userWire = (mfa: string[]) => ({
  id: 'user-1',
  created_at: 1,
  linked_accounts: [],
  mfa_methods: mfa,
  has_accepted_terms: false,
  is_guest: false,
})

function setup(answers: Record<string, (data: Record<string, unknown>) => unknown>) {
  let user = { id: 'user-1', mfaMethods: ['totp'] } as unknown as User
  const sent: Array<{ event: string; data: Record<string, unknown> }> = []
  const statusAnswers: unknown[] = []
  const client = {
    session: {
      getState: () => ({ status: 'authenticated', user }),
      getAccessToken: async () => 'token-1',
      setUser: (next: User) => {
        user = next
      },
    },
    authedRequest: vi.fn(async () => statusAnswers.shift()),
  } as unknown as LatchkeyClient
  const bridge = {
    origin: 'http://enclave.test',
    async request(event: string, data: Record<string, unknown>) {
      sent.push({ event, data })
      const answer = answers[event]
      if (!answer) throw new Error(`unexpected ${event}`)
      return answer(data)
    },
    keyThumbprint: async () => null,
    destroy() {},
  } as unknown as EnclaveBridge
  attachEnclave(client, bridge)
  return { client, sent, statusAnswers, user: () => user }
}

describe('MFA calls go through the enclave', () => {
  it('verifies a code with the access token and the code only', async () => {
    const verification = { method: 'totp', verified_at: 1, expires_at: 901 }
    const { client, sent } = setup({ 'latchkey:mfa:verify': () => verification })
    await expect(verifyMfa(client, { method: 'totp', code: '123456' })).resolves.toEqual(
      verification,
    )
    expect(sent).toEqual([
      {
        event: 'latchkey:mfa:verify',
        data: { access_token: 'token-1', request: { method: 'totp', code: '123456' } },
      },
    ])
  })

  it("verifies with a passkey: the server's options, this page's prompt, the enclave's verify", async () => {
    const assertion = {
      id: 'cred',
      rawId: 'cred',
      type: 'public-key' as const,
      response: { clientDataJSON: 'a', authenticatorData: 'b', signature: 'c' },
      clientExtensionResults: {},
    }
    const ceremonies: PasskeyCeremonies = {
      isSupported: () => true,
      create: vi.fn(),
      get: vi.fn(async () => assertion),
      cancel: vi.fn(),
    }
    const { client, sent } = setup({
      'latchkey:mfa:init-verify': () => ({
        relying_party: 'app.test',
        options: { challenge: 'ch' },
      }),
      'latchkey:mfa:verify': () => ({ method: 'passkey', verified_at: 1, expires_at: 901 }),
    })
    await verifyMfa(client, { method: 'passkey', ceremonies })
    expect(ceremonies.get).toHaveBeenCalledWith({ challenge: 'ch' })
    expect(sent.map((m) => m.event)).toEqual(['latchkey:mfa:init-verify', 'latchkey:mfa:verify'])
    expect(sent[1]?.data.request).toMatchObject({
      method: 'passkey',
      relying_party: 'app.test',
      authenticator_response: { id: 'cred' },
    })
  })

  it('maps the authenticator setup and stores the user a confirmed setup answers', async () => {
    const { client, user } = setup({
      'latchkey:mfa:init-enrollment': () => ({ secret: 'ABC', auth_url: 'otpauth://totp/x' }),
      'latchkey:mfa:submit-enrollment': (data) => {
        expect(data.request).toEqual({ method: 'sms', phone_number: '+14155550132', code: '1' })
        return { user: userWire(['totp', 'sms']), verification: null }
      },
    })
    await expect(initTotpEnrollment(client)).resolves.toEqual({
      secret: 'ABC',
      authUrl: 'otpauth://totp/x',
    })
    await submitMfaEnrollment(client, { method: 'sms', phoneNumber: '+14155550132', code: '1' })
    expect(user().mfaMethods).toEqual(['totp', 'sms'])
  })

  it('asks for a verification before removing a method when the server wants one', async () => {
    let verified = false
    const { client } = setup({
      'latchkey:mfa:unenroll': (data) => {
        if (!verified)
          throw new LatchkeyError('MFA_REQUIRED', undefined, { details: { mfa_methods: ['totp'] } })
        expect(data.request).toEqual({
          method: 'passkey',
          credential_id: 'cred',
          remove_for_login: true,
        })
        return { user: userWire([]) }
      },
    })
    const prompter = getMfaPrompter(client)
    const withdraw = prompter.handle()
    const removed = unenrollMfa(client, {
      method: 'passkey',
      credentialId: 'cred',
      removeForLogin: true,
    })
    await vi.waitFor(() => expect(prompter.getChallenge()?.status).toBe('pending'))
    await prompter.verify(async () => {
      verified = true
    })
    await expect(removed).resolves.toMatchObject({ mfaMethods: [] })
    withdraw()
  })

  it('unlinks an MFA passkey through the enclave: out of MFA and the account in one step', async () => {
    const { client, sent } = setup({
      'latchkey:mfa:unenroll': () => ({ user: userWire([]) }),
    })
    client.session.setUser({
      id: 'user-1',
      mfaMethods: ['passkey'],
      linkedAccounts: [{ type: 'passkey', credentialId: 'cred', enrolledInMfa: true }],
    } as unknown as User)
    await unlinkPasskey(client, { credentialId: 'cred', removeAsMfa: true })
    expect(sent).toEqual([
      {
        event: 'latchkey:mfa:unenroll',
        data: {
          access_token: 'token-1',
          request: { method: 'passkey', credential_id: 'cred', remove_for_login: true },
        },
      },
    ])
  })

  it('challenges before an export page when the session has no open window', async () => {
    const { client, statusAnswers } = setup({})
    const prompter = getMfaPrompter(client)
    const withdraw = prompter.handle()
    const far = Math.floor(Date.now() / 1000) + 900
    statusAnswers.push(
      { factors: [{ method: 'totp', enrolled_at: 1 }], verified_until: null },
      { factors: [{ method: 'totp', enrolled_at: 1 }], verified_until: far },
    )
    const ready = ensureMfaVerified(client)
    await vi.waitFor(() => expect(prompter.getChallenge()).toMatchObject({ methods: ['totp'] }))
    await prompter.verify(async () => {})
    await expect(ready).resolves.toBeUndefined()
    withdraw()
  })
})
