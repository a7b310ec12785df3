import { Spinner } from '../components/Spinner.tsx'
import { scanVerdict } from './ethereum-display.ts'
import type { ScanState } from './useEthereumStep.ts'

const VERDICT_TEXT = {
  Benign: 'No issues found',
  Warning: 'Warning',
  Malicious: 'Flagged as malicious',
} as const

/**
 * The scan's state under the rows (spec 03 §4 "optional scan"): checking,
 * its verdict with a way to the scan details, or, when it failed or the node
 * cannot simulate, why in a small note (the preview above is then the plain one).
 */
export function ScanStatus({ scan, onDetails }: { scan: ScanState; onDetails(): void }) {
  if (scan.status === 'uninitiated') return null
  if (scan.status === 'in progress')
    return (
      <div className="lk-tx-scan" role="status">
        <Spinner size="sm" />
        <span>Checking transaction...</span>
      </div>
    )
  if (scan.status === 'failed' || scan.status === 'unsupported')
    return (
      <p className="lk-tx-scan" data-testid="lk-tx-scan-note">
        {scan.status === 'failed' ? scan.message : scan.reason}
      </p>
    )
  const verdict = scanVerdict(scan)
  return (
    <div className="lk-tx-scan">
      <span>{verdict ? VERDICT_TEXT[verdict.result_type] : 'Simulated'}</span>
      <button type="button" className="lk-link-btn" onClick={onDetails}>
        View scan details
      </button>
    </div>
  )
}

/**
 * Spec 03 §4: a Warning result shows a warning; a Malicious one blocks
 * confirming until 'I understand and want to proceed anyways.' is ticked.
 */
export function ScanWarning({
  scan,
  acknowledged,
  onAcknowledge,
}: {
  scan: ScanState
  acknowledged: boolean
  onAcknowledge(value: boolean): void
}) {
  const verdict = scanVerdict(scan)
  if (!verdict || verdict.result_type === 'Benign') return null
  const why = verdict.reason ?? verdict.description
  if (verdict.result_type === 'Warning')
    return (
      <div className="lk-warning" role="status" data-testid="lk-tx-warning">
        <strong>This transaction may be risky</strong>
        {why && <span>{why}</span>}
      </div>
    )
  return (
    <div className="lk-warning" data-tone="danger" role="alert" data-testid="lk-tx-malicious">
      <strong>This transaction was flagged as malicious</strong>
      {why && <span>{why}</span>}
      <label className="lk-checkbox">
        <input
          type="checkbox"
          checked={acknowledged}
          onChange={(event) => onAcknowledge(event.target.checked)}
        />
        <span>I understand and want to proceed anyways.</span>
      </label>
    </div>
  )
}
