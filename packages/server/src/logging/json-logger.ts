import { type DestinationStream, pino } from 'pino'
import { DEFAULT_LOG_LEVEL, type LogLevel } from './levels.ts'
import type { Logger } from './logger.ts'
import { REDACT_PATHS, REDACTED } from './redact.ts'

export interface JsonLoggerOptions {
  /** Lines below it are dropped (default `info`; `latchkey serve` reads LATCHKEY_LOG_LEVEL). */
  level?: LogLevel
  /**
   * Where lines go: a file path (appended to), or any stream with `write`
   * (default stdout). Writes are synchronous, so no line is lost when the
   * process exits or is killed.
   */
  destination?: string | DestinationStream
}

/**
 * A {@link Logger} that writes one JSON object per line with pino:
 * `{"level":"info","time":"2025-…Z","pid":…,"hostname":…,"msg":"…",…fields}`,
 * secret-named keys redacted (logging/redact.ts). What `latchkey serve` uses.
 *
 * @example
 * const server = await createLatchkeyServer({ logger: createJsonLogger({ level: 'debug' }) })
 */
export function createJsonLogger(options: JsonLoggerOptions = {}): Logger {
  const { destination } = options
  const stream =
    typeof destination === 'string'
      ? pino.destination({ dest: destination, sync: true, mkdir: true })
      : (destination ?? pino.destination({ dest: 1, sync: true }))
  const log = pino(
    {
      level: options.level ?? DEFAULT_LOG_LEVEL,
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      redact: { paths: REDACT_PATHS, censor: REDACTED },
    },
    stream,
  )
  return {
    debug: (message, fields) => log.debug(fields ?? {}, message),
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  }
}
