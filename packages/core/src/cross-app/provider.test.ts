import { describe, expect, it, vi } from 'vitest'
import { base64url } from '../redirect.ts'
import { postCrossAppAnswer, readCrossAppPageRequest } from './provider.ts'

const R = 'requesteraaaaaaaaaaaaaaaa'
const query = (params: Record<string, string>) => `?${new URLSearchParams(params)}`
const encode = (value: unknown) => base64url(new TextEncoder().encode(JSON.stringify(value)))

describe('the provider page’s request', () => {
  it('reads an authorize request', () => {
    const search = query({
      latchkey_cross_app: 'authorize',
      requester_app_id: R,
      state: 's1',
      code_challenge: 'c'.repeat(43),
      origin: 'http://requester.test',
    })
    expect(readCrossAppPageRequest(search)).toEqual({
      kind: 'authorize',
      requesterAppId: R,
      state: 's1',
      codeChallenge: 'c'.repeat(43),
      origin: 'http://requester.test',
    })
  })

  it('reads a transact request and its RPC request (base64url JSON)', () => {
    const rpc = { method: 'personal_sign', params: ['0x68656c6c6f', '0xabc'] }
    const search = query({
      latchkey_cross_app: 'transact',
      requester_app_id: R,
      state: 's2',
      token: 't'.repeat(43),
      request: encode(rpc),
      origin: 'http://requester.test',
    })
    expect(readCrossAppPageRequest(search)).toMatchObject({ kind: 'transact', request: rpc })
  })

  it('is null for a page load without one, or a malformed one', () => {
    expect(readCrossAppPageRequest('')).toBeNull()
    expect(
      readCrossAppPageRequest(query({ latchkey_cross_app: 'authorize', state: 's' })),
    ).toBeNull()
    const base = {
      latchkey_cross_app: 'transact',
      requester_app_id: R,
      state: 's',
      token: 't',
      origin: 'http://r.test',
    }
    expect(readCrossAppPageRequest(query({ ...base, request: 'not-json' }))).toBeNull()
    expect(
      readCrossAppPageRequest(
        query({ ...base, request: encode({ method: 'eth_sign', params: [] }) }),
      ),
    ).toBeNull()
  })
})

describe('postCrossAppAnswer', () => {
  it('posts to the requester’s exact origin, never "*"', () => {
    const opener = { postMessage: vi.fn() }
    const request = readCrossAppPageRequest(
      query({
        latchkey_cross_app: 'authorize',
        requester_app_id: R,
        state: 's1',
        code_challenge: 'c'.repeat(43),
        origin: 'http://requester.test',
      }),
    )
    if (!request) throw new Error('no request')
    postCrossAppAnswer(request, { result: 'code', code: 'the-code' }, opener)
    expect(opener.postMessage).toHaveBeenCalledWith(
      { type: 'latchkey:cross-app', state: 's1', result: 'code', code: 'the-code' },
      'http://requester.test',
    )
  })
})
