import { describe, expect, it } from 'vitest'
import { loadConfigFromEnv } from '../config.ts'
import { createJsonLogger } from './json-logger.ts'
import { type LogLevel, logLevelFromEnv } from './levels.ts'
import { runWithRequestId, withRequestId } from './request-context.ts'

// The JSON logger's contract: one object per line, fields as keys, the
// level from LATCHKEY_LOG_LEVEL (a bad one refuses to start), secret-named
// keys redacted, and the request id on every line written inside a request.
const capture = (level?: LogLevel) => {
  const lines: Array<Record<string, unknown>> = []
  const logger = createJsonLogger({
    level,
    destination: { write: (line) => lines.push(JSON.parse(line)) },
  })
  return { logger, lines }
}

describe('createJsonLogger', () => {
  it('writes one JSON object per line: level label, ISO time, message, fields', () => {
    const { logger, lines } = capture()
    logger.warn('oauth: google token endpoint answered HTTP 500', { app_id: 'app1' })
    logger.info('plain message, as every existing call site writes it')
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'warn',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
        msg: 'oauth: google token endpoint answered HTTP 500',
        app_id: 'app1',
      }),
      expect.objectContaining({
        level: 'info',
        msg: 'plain message, as every existing call site writes it',
      }),
    ])
  })

  it('drops lines below its level (info by default)', () => {
    const quiet = capture()
    quiet.logger.debug?.('detail')
    expect(quiet.lines).toEqual([])
    const verbose = capture('debug')
    verbose.logger.debug?.('detail')
    expect(verbose.lines).toMatchObject([{ level: 'debug', msg: 'detail' }])
  })

  it('redacts secret-named keys at the top and inside the usual containers', () => {
    const { logger, lines } = capture()
    logger.error('careless', {
      code: '123456',
      refresh_token: 'rt',
      body: { password: 'hunter2', share: 's', email: 'a@b.co' },
      headers: { authorization: 'Bearer x', cookie: 'c', 'content-type': 'application/json' },
    })
    expect(lines[0]).toMatchObject({
      code: '[redacted]',
      refresh_token: '[redacted]',
      body: { password: '[redacted]', share: '[redacted]', email: 'a@b.co' },
      headers: {
        authorization: '[redacted]',
        cookie: '[redacted]',
        'content-type': 'application/json',
      },
    })
  })
})

describe('withRequestId', () => {
  it('adds the id of the request being served, and nothing outside one', async () => {
    const { logger, lines } = capture()
    const log = withRequestId(logger)
    log.info('at start')
    await runWithRequestId('req-1', async () => {
      await Promise.resolve()
      log.warn('inside', { app_id: 'a' })
    })
    expect(lines.map((l) => [l.msg, l.request_id, l.app_id])).toEqual([
      ['at start', undefined, undefined],
      ['inside', 'req-1', 'a'],
    ])
  })

  it('keeps a logger without fields working: it gets the message', () => {
    const seen: string[] = []
    const log = withRequestId({ info: (m) => seen.push(m), warn() {}, error() {} })
    runWithRequestId('req-2', () => log.info('hello'))
    expect(seen).toEqual(['hello'])
  })
})

describe('LATCHKEY_LOG_LEVEL', () => {
  it('defaults to info, takes any pino level in any case, refuses anything else', () => {
    expect(logLevelFromEnv({})).toBe('info')
    expect(logLevelFromEnv({ LATCHKEY_LOG_LEVEL: 'DEBUG' })).toBe('debug')
    expect(logLevelFromEnv({ LATCHKEY_LOG_LEVEL: 'silent' })).toBe('silent')
    expect(() => logLevelFromEnv({ LATCHKEY_LOG_LEVEL: 'verbose' })).toThrow(
      'LATCHKEY_LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got verbose',
    )
  })

  it('is read with the other settings, so `latchkey serve` stops at start on a bad one', () => {
    expect(loadConfigFromEnv({}).logLevel).toBe('info')
    expect(() => loadConfigFromEnv({ LATCHKEY_LOG_LEVEL: 'loud' })).toThrow(/LATCHKEY_LOG_LEVEL/)
  })
})
