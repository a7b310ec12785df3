import type { LatchkeyError } from '@latchkey/core'
import type { EthereumStepResult, EthereumTransactionRequest } from '../../transaction-requests.ts'
import { ConnectEmbeddedWalletScreen } from '../screens/ConnectEmbeddedWalletScreen.tsx'
import { EthereumConfirmView } from './EthereumConfirmView.tsx'
import { ScanDetailsView } from './ScanDetailsView.tsx'
import { TransactionErrorView } from './TransactionErrorView.tsx'
import { TransactionFunding } from './TransactionFunding.tsx'
import { TransactionReceiptView } from './TransactionReceiptView.tsx'
import { useEthereumTransactionFlow } from './useEthereumTransactionFlow.ts'

export interface EthereumTransactionScreenProps {
  request: EthereumTransactionRequest
  /**
   * The steps done so far, after each one succeeds (so closing once a step
   * was broadcast resolves with its hash instead of a rejection); the last
   * call holds every step.
   */
  onResult(results: EthereumStepResult[]): void
  /** 'All Done' on the receipt, or 1.4 s after the last signature (mode 'sign'): close the modal. */
  onDone(): void
  /** 'Not now': close without sending (the user's rejection). */
  onCancel(): void
  /**
   * What closing the modal now means: the submit's error on the error
   * screen, the prepare error when nothing can be signed, the connect-wallet
   * screen's exit while the wallet is recovered; null otherwise (a rejection).
   */
  onExitChange?(error: LatchkeyError | null): void
}

/**
 * Spec 03 "Ethereum transaction confirm": the confirm screen of one or more
 * steps, then the receipt, the error screen with 'Retry transaction', the
 * scan details, the connect-wallet screen when signing needs the wallet
 * recovered first, or the funding flow of 'Add funds'. Core does the work through the request's preview,
 * prepare, scan and submit; this only renders.
 */
export function EthereumTransactionScreen({
  request,
  onResult,
  onDone,
  onCancel,
  onExitChange,
}: EthereumTransactionScreenProps) {
  const flow = useEthereumTransactionFlow(request, { onResult, onDone, onExitChange })
  const { view } = flow

  if (view.view === 'recovering' && request.recovery)
    return (
      <ConnectEmbeddedWalletScreen
        step={request.recovery}
        needs={view.needs}
        onConnected={flow.resume}
        onExitChange={(error) => onExitChange?.(error)}
        onClose={onCancel}
      />
    )
  if (view.view === 'funding')
    return <TransactionFunding request={view.request} onClose={flow.closeFunding} />
  if (view.view === 'error')
    return (
      <TransactionErrorView
        failure={view.failure}
        explorerUrl={view.failure.hash ? request.explorerUrl(view.failure.hash) : null}
        onRetry={flow.retry}
      />
    )
  if (view.view === 'receipt')
    return (
      <TransactionReceiptView
        title={request.uiOptions.successHeader}
        description={request.uiOptions.successDescription}
        hashes={flow.results().flatMap((result) => (result.hash ? [result.hash] : []))}
        explorerUrl={(hash) => request.explorerUrl(hash as `0x${string}`)}
        onDone={onDone}
      />
    )
  if (view.view === 'scan-details' && flow.step.scan.status === 'completed')
    return (
      <ScanDetailsView
        result={flow.step.scan.result}
        chain={request.chain}
        onBack={flow.showConfirm}
      />
    )
  return <EthereumConfirmView request={request} flow={flow} onCancel={onCancel} />
}

export default EthereumTransactionScreen
