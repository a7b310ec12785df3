import { expect, it } from 'vitest'
import { loadConfigFromEnv } from '../config.ts'

// LATCHKEY_METRICS_TOKEN (a bearer token) or LATCHKEY_METRICS=public turn
// /metrics on; anything unclear refuses to start rather than guess.
const TOKEN = 'a-metrics-token-of-32-characters'

it('is off when neither variable is set', () => {
  expect(loadConfigFromEnv({}).metrics).toBeUndefined()
  expect(loadConfigFromEnv({ LATCHKEY_METRICS: '', LATCHKEY_METRICS_TOKEN: '' }).metrics).toBe(
    undefined,
  )
})

it('reads a token, or public', () => {
  expect(loadConfigFromEnv({ LATCHKEY_METRICS_TOKEN: TOKEN }).metrics).toEqual({ token: TOKEN })
  expect(loadConfigFromEnv({ LATCHKEY_METRICS: 'public' }).metrics).toEqual({ public: true })
})

it('refuses a short token, both at once, and any other LATCHKEY_METRICS value', () => {
  expect(() => loadConfigFromEnv({ LATCHKEY_METRICS_TOKEN: 'short' })).toThrow(/16 characters/)
  expect(() =>
    loadConfigFromEnv({ LATCHKEY_METRICS_TOKEN: TOKEN, LATCHKEY_METRICS: 'public' }),
  ).toThrow(/not both/)
  for (const value of ['true', '1', 'on', 'Public'])
    expect(() => loadConfigFromEnv({ LATCHKEY_METRICS: value })).toThrow(/'public' or unset/)
})
