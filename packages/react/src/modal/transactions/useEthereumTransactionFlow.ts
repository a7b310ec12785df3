import { LatchkeyError } from '@latchkey/core'
import type { PreparedEthereumTransaction } from '@latchkey/core/transactions'
import { SUCCESS_CLOSE_DELAY_MS } from '@latchkey/protocol/constants'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { RecoveryMethod } from '@latchkey/protocol/schemas'
import { useEffect, useRef, useState } from 'react'
import { recoveryMethodOf } from '../../hooks/signing.ts'
import type { EthereumStepResult, EthereumTransactionRequest } from '../../transaction-requests.ts'
import type { FundWalletRequest } from '../funding/request.ts'
import { scanVerdict } from './ethereum-display.ts'
import { type TransactionFailure, transactionFailure } from './transaction-failure.ts'
import { type EthereumStepState, type StepLoad, useEthereumStep } from './useEthereumStep.ts'
import { useUsdPrice } from './useUsdPrice.ts'

export type EthereumTransactionView =
  | { view: 'confirm' }
  | { view: 'scan-details' }
  | { view: 'receipt' }
  | { view: 'error'; failure: TransactionFailure }
  | { view: 'recovering'; needs: RecoveryMethod | null }
  /** 'Add funds': the funding flow, drawn in place; closing it comes back to the confirm screen. */
  | { view: 'funding'; request: FundWalletRequest }

export interface EthereumTransactionCallbacks {
  onResult(results: EthereumStepResult[]): void
  onDone(): void
  onExitChange?(error: LatchkeyError | null): void
}

// Submit errors that put the user back on the confirm screen with the message, not the error screen.
const REJECTIONS: readonly ErrorCode[] = ['MFA_CANCELED', 'WALLET_USER_REJECTED']

/**
 * The confirm screen's steps and submits (spec 03 §4 "Ethereum transaction").
 * Every step is prepared and scanned through the request; 'Approve' submits
 * it; a non-last step's success loads the next one. The last one shows the
 * receipt (mode 'send') or finishes 1.4 s later (mode 'sign'). With the
 * request's `submitAll` (a smart wallet's batch) 'Continue' only collects the
 * step, and the last 'Approve' sends every step as one operation. A failure
 * opens the error screen, whose retry prepares the step again (without the
 * app's nonce once a hash existed: that nonce is spent).
 */
export function useEthereumTransactionFlow(
  request: EthereumTransactionRequest,
  { onResult, onDone, onExitChange }: EthereumTransactionCallbacks,
) {
  const total = request.requests.length
  const [load, setLoad] = useState<StepLoad>(() => ({
    index: 0,
    input: request.requests[0] ?? {},
    seq: 0,
  }))
  const step: EthereumStepState = useEthereumStep(request, load)
  // Once per screen, not per step: every step is on the same chain.
  const usdPrice = useUsdPrice(request.usdPrice)
  const [view, setView] = useState<EthereumTransactionView>({ view: 'confirm' })
  const [status, setStatus] = useState<'idle' | 'submitting' | 'funding' | 'success'>('idle')
  const [notice, setNotice] = useState<ErrorCode | null>(null)
  const [acknowledged, setAcknowledged] = useState(false)
  const results = useRef<EthereumStepResult[]>([])
  // With `submitAll`: the steps confirmed so far, in order.
  const approved = useRef<PreparedEthereumTransaction[]>([])
  const done = useRef(onDone)
  done.current = onDone
  const exit = useRef(onExitChange)
  exit.current = onExitChange
  const isLast = load.index === total - 1

  useEffect(() => {
    if (status !== 'success') return
    const timer = setTimeout(() => done.current(), SUCCESS_CLOSE_DELAY_MS)
    return () => clearTimeout(timer)
  }, [status])

  // Closing while nothing can be signed reports why (TRANSACTION_PREPARE_FAILED, …), not a rejection.
  useEffect(() => {
    exit.current?.(step.prepareError)
  }, [step.prepareError])

  const reload = (index: number, input = request.requests[index] ?? {}) => {
    setLoad((current) => ({ index, input, seq: current.seq + 1 }))
    setAcknowledged(false)
  }

  const submit = async () => {
    const prepared = step.prepared
    if (!prepared) return
    const { submitAll } = request
    if (submitAll) {
      // A batch goes out whole on the last 'Approve': the steps before only collect.
      approved.current = [...approved.current.slice(0, load.index), prepared]
      if (!isLast) return reload(load.index + 1)
    }
    setStatus('submitting')
    setNotice(null)
    try {
      const result = submitAll ? await submitAll(approved.current) : await request.submit(prepared)
      if (result.receipt?.status === 'reverted')
        throw new LatchkeyError('TRANSACTION_REVERTED', undefined, {
          details: { hash: result.hash, receipt: result.receipt },
        })
      results.current = submitAll ? [result] : [...results.current.slice(0, load.index), result]
      // Reported after every step: closing once a step went through is not a rejection.
      onResult(results.current)
      if (!isLast) {
        reload(load.index + 1)
        setStatus('idle')
      } else if (request.mode === 'sign') setStatus('success')
      else {
        setView({ view: 'receipt' })
        setStatus('idle')
      }
    } catch (error) {
      setStatus('idle')
      if (error instanceof LatchkeyError && error.code === 'RECOVERY_REQUIRED' && request.recovery)
        return setView({ view: 'recovering', needs: recoveryMethodOf(error) })
      if (error instanceof LatchkeyError && REJECTIONS.includes(error.code))
        return setNotice(error.code)
      const failure = transactionFailure(error)
      exit.current?.(
        error instanceof LatchkeyError
          ? error
          : new LatchkeyError('TRANSACTION_FAILURE', failure.message, { cause: error }),
      )
      setView({ view: 'error', failure })
    }
  }

  /** 'Retry transaction': prepare the step again (a fresh nonce when it was broadcast), then confirm. */
  const retry = () => {
    if (view.view !== 'error') return
    const { nonce: _spent, ...fresh } = load.input
    reload(load.index, view.failure.hash ? fresh : load.input)
    exit.current?.(null)
    setView({ view: 'confirm' })
  }

  /**
   * 'Add funds': the funding flow for the value plus the fee (spec 03 §4),
   * in place of the confirm screen; 'Funding wallet is not enabled' and the
   * like stay on the confirm screen as its notice.
   */
  const addFunds = async () => {
    const prepared = step.prepared
    if (!prepared || !request.addFunds) return
    setStatus('funding')
    setNotice(null)
    try {
      const funding = await request.addFunds(prepared.request.value + prepared.estimatedFee)
      setView({ view: 'funding', request: funding })
    } catch (error) {
      setNotice(error instanceof LatchkeyError ? error.code : 'FUNDING_FAILED')
    } finally {
      setStatus('idle')
    }
  }

  /** Funding closed (funded or not): back on the confirm screen, prepared again to check the balance. */
  const closeFunding = () => {
    setView({ view: 'confirm' })
    reload(load.index, load.input)
  }

  const verdict = scanVerdict(step.scan)
  const malicious = verdict?.result_type === 'Malicious'
  const needsFunds = step.prepared !== null && !step.prepared.hasFunds
  const canSubmit =
    status === 'idle' &&
    !step.loading &&
    step.prepared !== null &&
    !needsFunds &&
    step.scan.status !== 'in progress' &&
    (!malicious || acknowledged)

  return {
    load,
    total,
    isLast,
    step,
    /** The native currency's USD price (spec 03 §7); null: no dollar values but the scan's. */
    usdPrice,
    view,
    status,
    notice,
    acknowledged,
    setAcknowledged,
    needsFunds,
    canSubmit,
    submit,
    retry,
    addFunds,
    closeFunding,
    /** Prepare the step again (the prepare warning's 'Retry'). */
    reprepare: () => reload(load.index, load.input),
    showScanDetails: () => setView({ view: 'scan-details' }),
    showConfirm: () => setView({ view: 'confirm' }),
    /** The wallet is usable again after recovery: submit as asked. */
    resume: () => {
      setView({ view: 'confirm' })
      void submit()
    },
    results: () => results.current,
  }
}

export type EthereumTransactionFlow = ReturnType<typeof useEthereumTransactionFlow>
