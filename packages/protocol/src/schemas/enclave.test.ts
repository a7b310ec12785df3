import { describe, expect, it } from 'vitest'
import { parseEnclaveRequest } from './enclave.ts'

const token = 'eyJhbGciOiJFUzI1NiJ9.e30.sig'

describe('parseEnclaveRequest (security bar 46: messages are schema-checked)', () => {
  it('accepts a well-formed request', () => {
    const raw = {
      id: 'req-1',
      event: 'latchkey:wallets:create',
      data: {
        access_token: token,
        chain_types: ['ethereum', 'solana'],
        recovery: { method: 'latchkey' },
      },
    }
    expect(parseEnclaveRequest(raw)).toEqual(raw)
  })

  it.each([
    ['not an object', 'latchkey:clear'],
    ['no id', { event: 'latchkey:clear', data: {} }],
    ['an oversized id', { id: 'x'.repeat(101), event: 'latchkey:clear', data: {} }],
    ['an unknown event', { id: '1', event: 'latchkey:wallets:steal', data: {} }],
    ['an inherited property as event', { id: '1', event: 'toString', data: {} }],
    ['a prototype key as event', { id: '1', event: '__proto__', data: {} }],
    [
      'a missing access token',
      {
        id: '1',
        event: 'latchkey:wallets:connect',
        data: { entropy_id: '0x0000000000000000000000000000000000000001' },
      },
    ],
    [
      'a bad address',
      {
        id: '1',
        event: 'latchkey:wallets:connect',
        data: { access_token: token, entropy_id: '0x12' },
      },
    ],
    [
      'a short password',
      {
        id: '1',
        event: 'latchkey:wallets:create',
        data: {
          access_token: token,
          chain_types: ['ethereum'],
          recovery: { method: 'user-passcode', password: '12345' },
        },
      },
    ],
    [
      'an unsupported rpc method',
      {
        id: '1',
        event: 'latchkey:wallets:rpc',
        data: {
          access_token: token,
          entropy_id: '0x0000000000000000000000000000000000000001',
          chain_type: 'ethereum',
          wallet_index: 0,
          request: { method: 'eth_sendTransaction', params: [] },
        },
      },
    ],
  ])('ignores %s', (_name, raw) => {
    expect(parseEnclaveRequest(raw)).toBeNull()
  })
})
