// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { LatchkeyError } from '../../errors.ts'
import { normalizeEthereumRequest } from './normalize.ts'

const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

function rejection(raw: unknown): LatchkeyError {
  try {
    normalizeEthereumRequest(raw)
  } catch (error) {
    if (error instanceof LatchkeyError) return error
    throw error
  }
  throw new Error('expected a rejection')
}

describe('normalizeEthereumRequest', () => {
  it('turns hex quantities into bigints and numbers', () => {
    expect(
      normalizeEthereumRequest({
        from: to,
        to,
        value: '0xde0b6b3a7640000',
        gas: '0x5208',
        nonce: '0x7',
        chainId: '0x1',
        maxFeePerGas: '0x3b9aca00',
        maxPriorityFeePerGas: '0x1',
        data: '0xa9059cbb',
      }),
    ).toEqual({
      to,
      value: 10n ** 18n,
      gas: 21_000n,
      nonce: 7,
      chainId: 1,
      maxFeePerGas: 1_000_000_000n,
      maxPriorityFeePerGas: 1n,
      data: '0xa9059cbb',
    })
  })

  it('takes decimal strings, numbers and bigints, and the input / gasLimit aliases', () => {
    expect(
      normalizeEthereumRequest({ to, value: '1000', gasLimit: 30_000, gasPrice: 5n, input: '0x' }),
    ).toEqual({ to, value: 1000n, gas: 30_000n, gasPrice: 5n })
  })

  it("takes '0x' as a zero value and checksums the recipient", () => {
    expect(normalizeEthereumRequest({ to: to.toLowerCase(), value: '0x' })).toEqual({
      to,
      value: 0n,
    })
  })

  it('keeps a deployment (to null with data)', () => {
    expect(normalizeEthereumRequest({ to: null, data: '0x6080' })).toEqual({
      to: null,
      data: '0x6080',
    })
  })

  it.each([
    ['not an object', 'hello', 'request'],
    ['an array', [{ to }], 'request'],
    ['a bad address', { to: '0x1234' }, 'to'],
    ['a wrong checksum', { to: to.replace('C8', 'c8') }, 'to'],
    ['no recipient and no data', { value: '0x1' }, 'to'],
    ['a negative value', { to, value: -1 }, 'value'],
    ['a fractional value', { to, value: 1.5 }, 'value'],
    ['a non-hex value', { to, value: '0xzz' }, 'value'],
    ['odd-length data', { to, data: '0xabc' }, 'data'],
    ['a nonce too large', { to, nonce: '0xffffffffffffffff' }, 'nonce'],
    ['gasPrice beside EIP-1559 fees', { to, gasPrice: '0x1', maxFeePerGas: '0x2' }, 'gasPrice'],
    [
      'a tip over the max fee',
      { to, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' },
      'maxPriorityFeePerGas',
    ],
  ])('rejects %s', (_, raw, field) => {
    const error = rejection(raw)
    expect(error.code).toBe('INVALID_TRANSACTION_REQUEST')
    expect(error.userMessage.title).toBe('Invalid transaction request')
    expect(error.details).toMatchObject({ field })
  })
})
