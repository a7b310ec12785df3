import type { LatchkeyError } from '@latchkey/core'
import type { SolanaStepResult, SolanaTransactionRequest } from '../../../transaction-requests.ts'
import { ConnectEmbeddedWalletScreen } from '../../screens/ConnectEmbeddedWalletScreen.tsx'
import { TransactionErrorView } from '../TransactionErrorView.tsx'
import { TransactionFunding } from '../TransactionFunding.tsx'
import { SolanaConfirmView } from './SolanaConfirmView.tsx'
import { SolanaReceiptView } from './SolanaReceiptView.tsx'
import { useSolanaTransactionFlow } from './useSolanaTransactionFlow.ts'

export interface SolanaTransactionScreenProps {
  request: SolanaTransactionRequest
  /** The transaction is signed (and, mode 'send', confirmed): closing now resolves with this. */
  onResult(result: SolanaStepResult): void
  /** 'All Done' on the receipt: close the modal. */
  onDone(): void
  /** 'Not now': close without signing (the user's rejection). */
  onCancel(): void
  /**
   * What closing the modal now means: the submit's error on the error
   * screen, the prepare error when nothing can be signed, the connect-wallet
   * screen's exit while the wallet is recovered; null otherwise (a rejection).
   */
  onExitChange?(error: LatchkeyError | null): void
}

/**
 * Spec 03 "Solana transaction confirm": the confirm screen, then the
 * receipt ('Transaction signed!' or 'Transaction complete!' with Total, Fees
 * and To, kept until 'All Done' in both modes: spec 03 §4 "success shows
 * the receipt"), the error screen with 'Retry transaction' (a fresh recent
 * blockhash), or the connect-wallet screen when signing needs the wallet
 * recovered first. Core does the work through the request; this only renders.
 */
export function SolanaTransactionScreen({
  request,
  onResult,
  onDone,
  onCancel,
  onExitChange,
}: SolanaTransactionScreenProps) {
  const flow = useSolanaTransactionFlow(request, { onResult, onExitChange })
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
        onRetry={() => void flow.retry()}
      />
    )
  if (view.view === 'receipt' && flow.prepared)
    return (
      <SolanaReceiptView
        mode={request.mode}
        address={request.address}
        cluster={request.cluster}
        uiOptions={request.uiOptions}
        prepared={flow.prepared}
        result={view.result}
        usdPrice={flow.usdPrice}
        explorerUrl={request.explorerUrl}
        onDone={onDone}
      />
    )
  return <SolanaConfirmView request={request} flow={flow} onCancel={onCancel} />
}

export default SolanaTransactionScreen
