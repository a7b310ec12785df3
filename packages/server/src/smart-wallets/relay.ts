import { SmartWalletRpcError } from './rpc-errors.ts'

/*
 * Relays one JSON-RPC call to a bundler or an ERC-7677 paymaster service on
 * behalf of a user (docs/smart-wallets.md "The RPC route"). Only the method
 * and params travel: never the caller's token or headers. The upstream URL
 * (which may carry an API key) appears in no answer or error.
 */

/** How long an upstream call may take. */
export const RELAY_TIMEOUT_MS = 15_000

/** Largest upstream answer read, in characters. */
const MAX_ANSWER = 1024 * 1024

export type RelayAnswer =
  | { result: unknown }
  | { error: { code: number; message: string; data?: unknown } }

/**
 * POSTs `{ jsonrpc, id, method, params }` to `url` and returns its result
 * or its JSON-RPC error. No answer in time, an HTTP error without a JSON-RPC
 * body, or a malformed answer throws `unavailable` (BUNDLER_UNAVAILABLE or
 * PAYMASTER_UNAVAILABLE).
 *
 * @example
 * await relayJsonRpc(chain.bundler_url, 'eth_supportedEntryPoints', [], 'BUNDLER_UNAVAILABLE')
 */
export async function relayJsonRpc(
  url: string,
  method: string,
  params: unknown[],
  unavailable: 'BUNDLER_UNAVAILABLE' | 'PAYMASTER_UNAVAILABLE',
  timeoutMs = RELAY_TIMEOUT_MS,
): Promise<RelayAnswer> {
  const what = unavailable === 'BUNDLER_UNAVAILABLE' ? 'bundler' : 'paymaster service'
  const fail = (why: string) =>
    new SmartWalletRpcError(unavailable, `The ${what} did not answer (${why}).`)
  // A timer, not AbortSignal.timeout: tests drive it with fake timers.
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), timeoutMs)
  let text: string
  let status: number
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      redirect: 'error',
      signal: controller.signal,
    })
    status = response.status
    text = await response.text()
  } catch {
    throw fail(controller.signal.aborted ? 'timed out' : 'unreachable')
  } finally {
    clearTimeout(timer)
  }
  if (text.length > MAX_ANSWER) throw fail('answer too large')
  let answer: unknown
  try {
    answer = JSON.parse(text)
  } catch {
    throw fail(`HTTP ${status}`)
  }
  const body = answer as {
    result?: unknown
    error?: { code?: unknown; message?: unknown; data?: unknown }
  }
  if (body && typeof body === 'object' && body.error && typeof body.error === 'object') {
    const { code, message, data } = body.error
    return {
      error: {
        code: typeof code === 'number' && Number.isInteger(code) ? code : -32603,
        message: typeof message === 'string' ? message.slice(0, 2000) : `The ${what} refused`,
        ...(data !== undefined ? { data } : {}),
      },
    }
  }
  if (body && typeof body === 'object' && 'result' in body) return { result: body.result }
  throw fail(`HTTP ${status}`)
}
