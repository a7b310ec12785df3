/** pino's levels, most to least severe; `silent` logs nothing. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

export type LogLevel = (typeof LOG_LEVELS)[number]

export const DEFAULT_LOG_LEVEL: LogLevel = 'info'

/**
 * `LATCHKEY_LOG_LEVEL` (default `info`). A value that is not a level stops
 * the server at start rather than logging at a level nobody asked for.
 */
export function logLevelFromEnv(env: NodeJS.ProcessEnv): LogLevel {
  const value = env.LATCHKEY_LOG_LEVEL?.trim().toLowerCase()
  if (!value) return DEFAULT_LOG_LEVEL
  if (!(LOG_LEVELS as readonly string[]).includes(value))
    throw new Error(
      `LATCHKEY_LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got ${env.LATCHKEY_LOG_LEVEL}`,
    )
  return value as LogLevel
}
