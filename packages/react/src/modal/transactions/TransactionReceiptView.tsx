import { CheckIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { StatusIcon } from '../components/StatusIcon.tsx'
import { HashRow } from './HashRow.tsx'

/**
 * Spec 03 "Ethereum transaction confirm" receipt: 'Transaction complete!'
 * and "You're all set." (or the app's `successHeader` / `successDescription`),
 * each step's hash with copy and explorer link, and 'All Done'.
 */
export function TransactionReceiptView({
  title = 'Transaction complete!',
  description = "You're all set.",
  hashes,
  explorerUrl,
  onDone,
}: {
  title?: string
  description?: string
  hashes: string[]
  explorerUrl(hash: string): string | null
  onDone(): void
}) {
  return (
    <ScreenLayout
      title={title}
      subtitle={description}
      media={
        <StatusIcon tone="success">
          <CheckIcon />
        </StatusIcon>
      }
    >
      {hashes.map((hash, i) => (
        <HashRow
          key={hash}
          hash={hash}
          explorerUrl={explorerUrl(hash)}
          label={hashes.length > 1 ? `Step ${i + 1}` : 'Transaction hash'}
        />
      ))}
      <div className="lk-actions">
        <button type="button" className="lk-btn lk-btn-primary" onClick={onDone} autoFocus>
          All Done
        </button>
      </div>
    </ScreenLayout>
  )
}
