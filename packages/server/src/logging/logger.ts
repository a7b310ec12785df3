/** Structured fields of one log line: JSON values, never a code, token, share or key. */
export type LogFields = Record<string, unknown>

/**
 * Where log lines go. Nothing passed here may contain codes, tokens or keys
 * (security bar 50). `fields` are optional structured values: the JSON logger
 * (logging/json-logger.ts) writes them as keys of the line, simpler loggers
 * may ignore them, so a message must read on its own.
 *
 * @example
 * logger.warn('refresh token reuse detected; session revoked', { app_id: appId })
 */
export interface Logger {
  /** Detail for debugging; loggers without it drop such lines. */
  debug?(message: string, fields?: LogFields): void
  info(message: string, fields?: LogFields): void
  warn(message: string, fields?: LogFields): void
  error(message: string, fields?: LogFields): void
}

const line = (message: string, fields?: LogFields) =>
  fields ? `${message} ${JSON.stringify(fields)}` : message

/** Human lines on the console (the default of `createLatchkeyServer`); fields follow as JSON. */
export const consoleLogger: Logger = {
  info: (m, f) => console.log(line(m, f)),
  warn: (m, f) => console.warn(line(m, f)),
  error: (m, f) => console.error(line(m, f)),
}

export const silentLogger: Logger = { info() {}, warn() {}, error() {} }
