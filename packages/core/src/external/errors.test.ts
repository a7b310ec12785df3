import { WALLET_RPC_TIMEOUT_MS } from '@latchkey/protocol/constants'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LatchkeyError } from '../errors.ts'
import { providerErrorCode, toWalletError, withWalletTimeout } from './errors.ts'

/** An EIP-1193 error as wallets throw them: an Error with a numeric `code`. */
const rpcError = (code: unknown, message = 'wallet said no') =>
  Object.assign(new Error(message), { code })

describe('providerErrorCode', () => {
  it('reads a numeric or numeric-string code, at the top or nested in data.originalError / cause / error', () => {
    expect(providerErrorCode({ code: 4001 })).toBe(4001)
    expect(providerErrorCode({ code: '-32002' })).toBe(-32002)
    expect(providerErrorCode({ data: { originalError: { code: 4902 } } })).toBe(4902)
    expect(providerErrorCode({ cause: { code: 4900 } })).toBe(4900)
    expect(providerErrorCode({ error: { code: '4001' } })).toBe(4001)
  })

  it('is undefined for non-numeric codes, plain values and errors without a code', () => {
    expect(providerErrorCode({ code: 'ACTION_REJECTED' })).toBeUndefined()
    expect(providerErrorCode(new Error('boom'))).toBeUndefined()
    expect(providerErrorCode('4001')).toBeUndefined()
    expect(providerErrorCode(null)).toBeUndefined()
    expect(providerErrorCode(undefined)).toBeUndefined()
  })

  it('stops looking after four levels of wrapping', () => {
    const deep = { cause: { cause: { cause: { cause: { code: 4001 } } } } }
    expect(providerErrorCode({ cause: { cause: { cause: { code: 4001 } } } })).toBe(4001)
    expect(providerErrorCode(deep)).toBeUndefined()
  })
})

describe('toWalletError', () => {
  it.each([
    ['a top-level 4001', rpcError(4001)],
    ['a string "4001"', rpcError('4001')],
    ['4001 in data.originalError (MetaMask mobile)', { data: { originalError: { code: 4001 } } }],
    ['4001 in cause', new Error('wrapped', { cause: { code: 4001 } })],
    ["Coinbase Wallet's 5000", rpcError(5000)],
    [
      'a Wallet Standard "User rejected the request" Error',
      new Error('User rejected the request.'),
    ],
  ])('maps %s to WALLET_USER_REJECTED ("You rejected the request")', (_, error) => {
    const mapped = toWalletError(error)
    expect(mapped).toBeInstanceOf(LatchkeyError)
    expect(mapped.code).toBe('WALLET_USER_REJECTED')
    expect(mapped.cause).toBe(error)
  })

  it('keeps the provider code in details', () => {
    expect(toWalletError(rpcError(4001)).details).toEqual({ providerCode: 4001 })
    expect(toWalletError({ cause: { code: '-32002' } }).details).toEqual({ providerCode: -32002 })
  })

  it('maps -32002 (pending request or locked wallet) to WALLET_REQUEST_PENDING', () => {
    expect(toWalletError(rpcError(-32002)).code).toBe('WALLET_REQUEST_PENDING')
    expect(toWalletError({ error: { code: -32002 } }).code).toBe('WALLET_REQUEST_PENDING')
  })

  it('maps 4900 and 4901 to WALLET_DISCONNECTED', () => {
    expect(toWalletError(rpcError(4900)).code).toBe('WALLET_DISCONNECTED')
    expect(toWalletError(rpcError(4901)).code).toBe('WALLET_DISCONNECTED')
  })

  it('maps 4902 (unknown chain) to UNSUPPORTED_CHAIN with the provider code', () => {
    const mapped = toWalletError(rpcError(4902, 'Unrecognized chain ID'))
    expect(mapped.code).toBe('UNSUPPORTED_CHAIN')
    expect(mapped.details).toEqual({ providerCode: 4902 })
  })

  it.each([
    ['an internal error (-32603)', rpcError(-32603, 'Internal JSON-RPC error.')],
    ['invalid params (4200)', rpcError(4200, 'Unsupported method')],
    ['a plain Error', new Error('something broke')],
    ['a string', 'nope'],
    ['undefined', undefined],
  ])('maps %s to WALLET_LOGIN_FAILED', (_, error) => {
    expect(toWalletError(error).code).toBe('WALLET_LOGIN_FAILED')
  })

  it("keeps the wallet's message as the short message of WALLET_LOGIN_FAILED", () => {
    expect(toWalletError(new Error('something broke')).shortMessage).toBe('something broke')
  })

  it('does not read rejection words when the wallet gave a code', () => {
    expect(toWalletError(rpcError(-32603, 'User rejected the request')).code).toBe(
      'WALLET_LOGIN_FAILED',
    )
  })

  it('passes a LatchkeyError through unchanged', () => {
    const error = new LatchkeyError('WALLET_NO_ACCOUNTS')
    expect(toWalletError(error)).toBe(error)
  })
})

describe('withWalletTimeout', () => {
  beforeEach(() => {
    vi.useFakeTimers()
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('resolves with the wallet answer and clears its timer', async () => {
    const result = withWalletTimeout(Promise.resolve(['0xabc']), 1000)
    await expect(result).resolves.toEqual(['0xabc'])
    expect(vi.getTimerCount()).toBe(0)
  })

  it('rejects with WALLET_REQUEST_TIMEOUT after the given ms, not before', async () => {
    const result = withWalletTimeout(new Promise(() => {}), 5000)
    const settled = vi.fn()
    result.then(settled, settled)
    await vi.advanceTimersByTimeAsync(4999)
    expect(settled).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await expect(result).rejects.toMatchObject({ code: 'WALLET_REQUEST_TIMEOUT' })
    expect(vi.getTimerCount()).toBe(0)
  })

  it('waits WALLET_RPC_TIMEOUT_MS (120 s) by default', async () => {
    const result = withWalletTimeout(new Promise(() => {}))
    const settled = vi.fn()
    result.then(settled, settled)
    await vi.advanceTimersByTimeAsync(WALLET_RPC_TIMEOUT_MS - 1)
    expect(settled).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await expect(result).rejects.toMatchObject({ code: 'WALLET_REQUEST_TIMEOUT' })
  })

  it("translates the wallet's rejection with toWalletError and clears its timer", async () => {
    const result = withWalletTimeout(Promise.reject(rpcError(4001)), 1000)
    await expect(result).rejects.toMatchObject({
      code: 'WALLET_USER_REJECTED',
      details: { providerCode: 4001 },
    })
    expect(vi.getTimerCount()).toBe(0)
  })
})
