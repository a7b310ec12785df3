import { CODE_RESEND_COOLDOWN_MS } from '@latchkey/protocol/constants'
import { describe, expect, it } from 'vitest'
import { createLatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import { createMemoryStorage } from '../storage.ts'
import { APP_ID, createFakeFetch, json } from '../test/fake-server.ts'
import type { User } from '../user.ts'
import { type CodeChannel, createCodeFlow } from './code-login.ts'

// The shared code login (code-login.ts) hands each channel's states out under
// the channel's own address name, with the delivery spread in: what
// EmailFlowState and SmsFlowState promise, and what a new channel gets.

const T0 = Date.UTC(2030, 0, 1)
const user = { id: 'did:latchkey:u1' } as User

function channel(codes: string[]): CodeChannel<{ channel: 'sms' | 'whatsapp' }> {
  return {
    key: 'handle',
    target: 'phone',
    identify: (handle) => handle.trim().toLowerCase(),
    send: async () => ({ channel: 'whatsapp' }),
    resume: (send) => (send.channel ? { channel: send.channel } : null),
    refused: async () => ({ channel: 'sms' }),
    fallback: { channel: 'sms' },
    async login({ code }) {
      codes.push(code)
      if (code !== '123456') throw new LatchkeyError('INVALID_CODE')
      return { user, isNewUser: true }
    },
    link: async () => user,
    update: async () => user,
  }
}

function flow(codes: string[] = []) {
  const client = createLatchkeyClient({
    appId: APP_ID,
    apiUrl: 'http://api.test',
    fetch: createFakeFetch(() => json(500, {})).fetch,
    storage: createMemoryStorage(),
    cookies: { get: () => null, set: () => {}, remove: () => {} },
  })
  return createCodeFlow(client, channel(codes), { now: () => T0 })
}

describe('createCodeFlow', () => {
  it("names the address with the channel's key and spreads the delivery: nothing else", async () => {
    const codes: string[] = []
    const f = flow(codes)
    expect(f.getState()).toEqual({ status: 'initial' })
    await f.sendCode(' Alice ')
    const sent = { codeSentAt: T0, resendAt: T0 + CODE_RESEND_COOLDOWN_MS }
    expect(f.getState()).toEqual({
      status: 'awaiting-code-input',
      handle: 'alice',
      ...sent,
      channel: 'whatsapp',
    })
    await f.submitCode('000000')
    expect(f.getState()).toEqual({
      status: 'error',
      handle: 'alice',
      error: new LatchkeyError('INVALID_CODE'),
      step: 'submit',
      ...sent,
      channel: 'whatsapp',
    })
    await f.submitCode('123456')
    expect(f.getState()).toEqual({ status: 'done', handle: 'alice', user, isNewUser: true })
    expect(codes).toEqual(['000000', '123456'])
  })

  it('hands out the same state object until the state changes (a stable snapshot for React)', async () => {
    const f = flow()
    await f.sendCode('alice')
    expect(f.getState()).toBe(f.getState())
    const before = f.getState()
    f.reset()
    expect(f.getState()).not.toBe(before)
    expect(f.getState()).toBe(f.getState())
  })
})
