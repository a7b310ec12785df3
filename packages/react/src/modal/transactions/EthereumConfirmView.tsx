import type { EthereumTransactionRequest } from '../../transaction-requests.ts'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { ConfirmActions } from './ConfirmActions.tsx'
import { EthereumRows } from './EthereumRows.tsx'
import { nativeText, submitText, transactionTitle } from './ethereum-display.ts'
import { PrepareWarning } from './PrepareWarning.tsx'
import { ScanStatus, ScanWarning } from './ScanNotice.tsx'
import type { EthereumTransactionFlow } from './useEthereumTransactionFlow.ts'
import { WalletCard } from './WalletCard.tsx'

/**
 * Spec 03 "Ethereum transaction confirm": the wallet card, the rows, the
 * scan, then the submit button ('Continue' / 'Approve', or 'Add funds') and
 * 'Not now' when the app allows it. Approve waits for the step to be
 * prepared and scanned, for enough funds, and for a malicious result to be
 * acknowledged.
 */
export function EthereumConfirmView({
  request,
  flow,
  onCancel,
}: {
  request: EthereumTransactionRequest
  flow: EthereumTransactionFlow
  onCancel(): void
}) {
  const { step, load, status } = flow
  const { uiOptions, chain } = request
  const title = transactionTitle(uiOptions, step.preview?.decoded ?? null, load.index, flow.total)
  const prepared = step.prepared
  const offerFunds = flow.needsFunds && request.addFunds !== undefined
  const buttonText =
    status === 'submitting'
      ? 'Approving...'
      : status === 'success'
        ? 'Success'
        : offerFunds
          ? 'Add funds'
          : submitText(uiOptions, flow.isLast)

  return (
    <ScreenLayout title={title} subtitle={uiOptions.description}>
      <WalletCard
        address={request.address}
        balance={prepared ? nativeText(prepared.balance, chain) : undefined}
      />
      {request.note && <p className="lk-subtitle">{request.note}</p>}
      {step.loading ? (
        <div className="lk-status">
          <Spinner label="Preparing transaction" />
        </div>
      ) : (
        <>
          <EthereumRows
            chain={chain}
            input={load.input}
            step={step}
            sponsored={request.sponsored}
            usdPrice={flow.usdPrice}
          />
          <ScanStatus scan={step.scan} onDetails={flow.showScanDetails} />
          <ScanWarning
            scan={step.scan}
            acknowledged={flow.acknowledged}
            onAcknowledge={flow.setAcknowledged}
          />
          {step.prepareError && (
            <PrepareWarning error={step.prepareError} onRetry={flow.reprepare} />
          )}
        </>
      )}
      <ConfirmActions
        fundsNote={
          flow.needsFunds && !request.addFunds
            ? `Add funds on ${chain.name} to complete transaction.`
            : null
        }
        notice={flow.notice}
        buttonText={buttonText}
        offerFunds={offerFunds}
        enabled={offerFunds ? status === 'idle' : flow.canSubmit}
        busy={status === 'submitting' || status === 'funding'}
        onSubmit={() => void flow.submit()}
        onAddFunds={() => void flow.addFunds()}
        cancel={
          uiOptions.isCancellable
            ? { onCancel, disabled: status === 'submitting' || status === 'success' }
            : null
        }
      />
      {status === 'success' && (
        <p className="lk-visually-hidden" role="status">
          Transaction signed
        </p>
      )}
    </ScreenLayout>
  )
}
