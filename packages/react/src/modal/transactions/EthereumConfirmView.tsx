import { errorMessages } from '@latchkey/protocol/errors'
import type { EthereumTransactionRequest } from '../../transaction-requests.ts'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
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
  const notice = flow.notice ? errorMessages[flow.notice] : null

  return (
    <ScreenLayout title={title} subtitle={uiOptions.description}>
      <WalletCard
        address={request.address}
        balance={prepared ? nativeText(prepared.balance, chain) : undefined}
      />
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
          {flow.needsFunds && !request.addFunds && (
            <p className="lk-tx-note">Add funds on {chain.name} to complete transaction.</p>
          )}
          {notice && (
            <p className="lk-alert" role="alert">
              {notice.title}
            </p>
          )}
        </>
      )}
      <div className="lk-actions">
        <button
          type="button"
          className="lk-btn lk-btn-primary"
          disabled={offerFunds ? status !== 'idle' : !flow.canSubmit}
          aria-busy={status === 'submitting' || status === 'funding'}
          onClick={() => void (offerFunds ? flow.addFunds() : flow.submit())}
        >
          {buttonText}
        </button>
        {uiOptions.isCancellable && (
          <button
            type="button"
            className="lk-btn lk-btn-secondary"
            disabled={status === 'submitting' || status === 'success'}
            onClick={onCancel}
          >
            Not now
          </button>
        )}
      </div>
      {status === 'success' && (
        <p className="lk-visually-hidden" role="status">
          Transaction signed
        </p>
      )}
    </ScreenLayout>
  )
}
