import type { LatchkeyError } from '@latchkey/core'
import { formatUserMessage, userMessageLine } from '@latchkey/protocol/errors'

/**
 * A funding error as one line, its placeholders filled from its details
 * ('Wallet {address} does not have enough funds.', 'Funding chain {id}…').
 */
export function fundingErrorLine(error: LatchkeyError): string {
  if (error.serverMessage !== undefined) return error.userMessageLine
  const details = (error.details ?? {}) as Record<string, unknown>
  const values = Object.fromEntries(
    Object.entries(details).flatMap(([key, value]) =>
      typeof value === 'string' || typeof value === 'number' ? [[key, String(value)]] : [],
    ),
  )
  return userMessageLine(formatUserMessage(error.code, values))
}

/**
 * The banner of a failed funding step; a bridge failure links to the
 * bridge's status page, where the refund can be followed (spec 03 §4).
 */
export function FundingAlert({ error }: { error: LatchkeyError | null }) {
  if (!error) return null
  const { refundUrl } = (error.details ?? {}) as { refundUrl?: unknown }
  return (
    <p className="lk-alert" role="alert">
      {fundingErrorLine(error)}
      {typeof refundUrl === 'string' && /^https?:\/\//.test(refundUrl) && (
        <>
          {' '}
          <a href={refundUrl} target="_blank" rel="noreferrer noopener">
            Check the refund status
          </a>
        </>
      )}
    </p>
  )
}
