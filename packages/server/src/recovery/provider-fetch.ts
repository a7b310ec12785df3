import { ApiError } from '../errors.ts'
import type { Services } from '../http/context.ts'

/** How long a call to Google or CloudKit may take before it counts as unreachable. */
export const PROVIDER_TIMEOUT_MS = 10_000

/** What a provider answered: status and parsed JSON (undefined when the body is not JSON). */
export interface ProviderResponse {
  status: number
  json: unknown
}

/**
 * One server-side call to a provider (Google's token endpoint, CloudKit):
 * a 10 s timeout, no redirects followed (a POST carrying the client secret
 * must never be replayed elsewhere), and a network failure, timeout or
 * refused redirect mapped to 424 CLOUD_RECOVERY_FAILED "<provider> could not
 * be reached". Logs the kind of failure only: never the URL's query (it may
 * hold a token), the request body or the answer.
 *
 * @example
 * const { status, json } = await providerFetch(services, 'Google', tokenUrl, { method: 'POST', body })
 */
export async function providerFetch(
  services: Pick<Services, 'logger'>,
  providerName: string,
  url: string,
  init: RequestInit,
): Promise<ProviderResponse> {
  let response: Response
  try {
    response = await fetch(url, {
      ...init,
      redirect: 'error',
      signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
    })
  } catch (error) {
    const kind = (error as Error | null)?.name === 'TimeoutError' ? 'timed out' : 'failed'
    services.logger.warn(
      `cloud recovery: the call to ${providerName} at ${new URL(url).origin} ${kind}`,
    )
    throw new ApiError('CLOUD_RECOVERY_FAILED', `${providerName} could not be reached`)
  }
  let json: unknown
  try {
    json = JSON.parse(await response.text())
  } catch {
    json = undefined
  }
  return { status: response.status, json }
}

/** 424 CLOUD_RECOVERY_FAILED with a message that says which step failed (never a token). */
export const providerFailure = (message: string) => new ApiError('CLOUD_RECOVERY_FAILED', message)
