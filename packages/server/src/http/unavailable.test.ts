import { describe, expect, it } from 'vitest'
import { isStoreUnavailable, unavailable } from './unavailable.ts'

// The database going away is a 503 the client retries, not a 500
// (docs/operations.md "Failures"); query errors that are answers or bugs are not.
const coded = (code: string, message = 'x') => Object.assign(new Error(message), { code })

describe('isStoreUnavailable', () => {
  it.each([
    ['a refused connect', coded('ECONNREFUSED')],
    ['a reset connection', coded('ECONNRESET')],
    [
      'PostgreSQL shutting down (57P01)',
      coded('57P01', 'terminating connection due to administrator command'),
    ],
    ['PostgreSQL starting up (57P03)', coded('57P03')],
    ['too many connections (53300)', coded('53300')],
    ['a class 08 connection exception', coded('08006')],
    ['SQLite busy past its timeout', coded('SQLITE_BUSY')],
    ['a connection dropped mid-query', new Error('Connection terminated unexpectedly')],
    ['a pool full past its wait', new Error('timeout exceeded when trying to connect')],
    [
      'both loopback addresses refused',
      new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]),
    ],
    ['a wrapped cause', new Error('query failed', { cause: coded('ECONNRESET') })],
  ])('%s: yes', (_, error) => {
    expect(isStoreUnavailable(error)).toBe(true)
  })

  it.each([
    ['a unique violation', coded('23505')],
    ['SQLite constraint', coded('SQLITE_CONSTRAINT_UNIQUE')],
    ['a syntax error', coded('42601')],
    ['a plain error', new Error('boom')],
    ['not an error', 'ECONNREFUSED'],
  ])('%s: no', (_, error) => {
    expect(isStoreUnavailable(error)).toBe(false)
  })
})

it('answers 503 SERVICE_UNAVAILABLE with Retry-After', () => {
  const error = unavailable()
  expect(error.status).toBe(503)
  expect(error.toBody()).toEqual({
    code: 'SERVICE_UNAVAILABLE',
    message: 'Service temporarily unavailable. Please try again.',
    retry_after: 2,
  })
  expect(error.headers()).toEqual({ 'retry-after': '2' })
})
