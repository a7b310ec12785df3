import { AsyncLocalStorage } from 'node:async_hooks'
import type { LogFields, Logger } from './logger.ts'

/** What a request carries through the code it runs, whatever calls the logger. */
interface RequestContext {
  requestId: string
}

const storage = new AsyncLocalStorage<RequestContext>()

/** Runs `fn` (a request's handlers) with its request id in scope. */
export const runWithRequestId = <T>(requestId: string, fn: () => T): T =>
  storage.run({ requestId }, fn)

/** The id of the request being served, when called from one. */
export const currentRequestId = (): string | undefined => storage.getStore()?.requestId

/**
 * The same logger, adding `request_id` to the fields of every line written
 * while a request is served: services log without knowing the request, and
 * an operator still finds every line of one request (docs/operations.md "Logs").
 */
export function withRequestId(logger: Logger): Logger {
  const wrap =
    (write: (message: string, fields?: LogFields) => void) =>
    (message: string, fields?: LogFields) => {
      const requestId = storage.getStore()?.requestId
      write(message, requestId ? { request_id: requestId, ...fields } : fields)
    }
  const debug = logger.debug
  return {
    ...(debug ? { debug: wrap(debug.bind(logger)) } : {}),
    info: wrap(logger.info.bind(logger)),
    warn: wrap(logger.warn.bind(logger)),
    error: wrap(logger.error.bind(logger)),
  }
}
