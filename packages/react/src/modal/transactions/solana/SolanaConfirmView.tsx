import type { SolanaTransactionRequest } from '../../../transaction-requests.ts'
import { ScreenLayout } from '../../components/ScreenLayout.tsx'
import { Spinner } from '../../components/Spinner.tsx'
import { ConfirmActions } from '../ConfirmActions.tsx'
import { submitText, transactionTitle } from '../ethereum-display.ts'
import { PrepareWarning } from '../PrepareWarning.tsx'
import { WalletCard } from '../WalletCard.tsx'
import { AdvancedRow } from './AdvancedRow.tsx'
import { SolanaRows } from './SolanaRows.tsx'
import { solText } from './solana-display.ts'
import type { SolanaTransactionFlow } from './useSolanaTransactionFlow.ts'

/**
 * Spec 03 "Solana transaction confirm": the wallet card with its balance,
 * the rows and 'Advanced', then 'Approve' (or the app's `buttonText`), 'Add
 * funds' when the wallet is short and the app can fund it, and 'Not now'
 * when the app allows it. Short of funds without funding, Approve stays
 * disabled and says 'Add funds on Solana to complete transaction.'
 */
export function SolanaConfirmView({
  request,
  flow,
  onCancel,
}: {
  request: SolanaTransactionRequest
  flow: SolanaTransactionFlow
  onCancel(): void
}) {
  const { uiOptions } = request
  const { prepared, status } = flow
  const offerFunds = flow.needsFunds && request.addFunds !== undefined
  const buttonText =
    status === 'submitting'
      ? 'Approving...'
      : offerFunds
        ? 'Add funds'
        : submitText(uiOptions, true)

  return (
    <ScreenLayout title={transactionTitle(uiOptions, null, 0, 1)} subtitle={uiOptions.description}>
      <WalletCard
        address={request.address}
        balance={prepared ? solText(prepared.balance) : undefined}
      />
      {flow.loading ? (
        <div className="lk-status">
          <Spinner label="Preparing transaction" />
        </div>
      ) : (
        <>
          {prepared && (
            <>
              <SolanaRows
                address={request.address}
                cluster={request.cluster}
                prepared={prepared}
                usdPrice={flow.usdPrice}
              />
              <AdvancedRow instructions={prepared.instructions} />
            </>
          )}
          {flow.prepareError && (
            <PrepareWarning error={flow.prepareError} onRetry={flow.reprepare} />
          )}
        </>
      )}
      <ConfirmActions
        fundsNote={
          flow.needsFunds && !request.addFunds
            ? 'Add funds on Solana to complete transaction.'
            : null
        }
        notice={flow.notice}
        buttonText={buttonText}
        offerFunds={offerFunds}
        enabled={offerFunds ? status === 'idle' : flow.canSubmit}
        busy={status === 'submitting' || status === 'funding'}
        onSubmit={() => void flow.submit()}
        onAddFunds={() => void flow.addFunds()}
        cancel={uiOptions.isCancellable ? { onCancel, disabled: status === 'submitting' } : null}
      />
    </ScreenLayout>
  )
}
