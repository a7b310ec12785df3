import { CheckIcon, CopyIcon } from '../components/icons.tsx'
import { useCopyFeedback } from '../components/useCopyFeedback.ts'
import { shortHex } from './ethereum-display.ts'

/**
 * A transaction's hash (spec 03 §8 "the hash with copy action and
 * block-explorer link"): short form, a copy button and, when the chain has
 * an explorer, a link to the transaction's page.
 */
export function HashRow({
  hash,
  explorerUrl,
  label = 'Transaction hash',
}: {
  hash: string
  explorerUrl: string | null
  label?: string
}) {
  const { copy, copied, confirmIcon } = useCopyFeedback()
  return (
    <div className="lk-tx-hash" data-testid="lk-tx-hash">
      <span className="lk-tx-hash-label">{label}</span>
      <span className="lk-tx-hash-value" title={hash}>
        {shortHex(hash)}
      </span>
      <span className="lk-tx-hash-actions">
        <button
          type="button"
          className="lk-icon-btn"
          aria-label={copied ? 'Copied' : 'Copy transaction hash'}
          onClick={() => copy(hash)}
        >
          {confirmIcon ? <CheckIcon /> : <CopyIcon />}
        </button>
        {explorerUrl && (
          <a className="lk-link-btn" href={explorerUrl} target="_blank" rel="noreferrer">
            View on explorer
          </a>
        )}
      </span>
    </div>
  )
}
