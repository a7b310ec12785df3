import { LatchkeyError } from '@latchkey/core'
import type { PreparedSolanaTransaction } from '@latchkey/core/solana'
import type { ErrorCode } from '@latchkey/protocol/errors'
import type { RecoveryMethod } from '@latchkey/protocol/schemas'
import { useEffect, useRef, useState } from 'react'
import { recoveryMethodOf } from '../../../hooks/signing.ts'
import type { SolanaStepResult, SolanaTransactionRequest } from '../../../transaction-requests.ts'
import type { FundWalletRequest } from '../../funding/request.ts'
import type { TransactionFailure } from '../transaction-failure.ts'
import { useUsdPrice } from '../useUsdPrice.ts'
import { lamportsSent } from './solana-display.ts'
import { solanaFailure } from './solana-failure.ts'

export type SolanaTransactionView =
  | { view: 'confirm' }
  | { view: 'receipt'; result: SolanaStepResult }
  | { view: 'error'; failure: TransactionFailure }
  | { view: 'recovering'; needs: RecoveryMethod | null }
  /** 'Add funds': the funding flow, drawn in place; closing it comes back to the confirm screen. */
  | { view: 'funding'; request: FundWalletRequest }

export interface SolanaTransactionCallbacks {
  onResult(result: SolanaStepResult): void
  onExitChange?(error: LatchkeyError | null): void
}

/** The transaction on screen; `seq` prepares it again (funds added, a retry). */
interface Load {
  wire: Uint8Array
  seq: number
}

interface Preparation {
  prepared: PreparedSolanaTransaction | null
  /** Why there is nothing to sign (INVALID_TRANSACTION_REQUEST, TRANSACTION_PREPARE_ERROR, …). */
  error: LatchkeyError | null
  loading: boolean
}

// Submit errors that put the user back on the confirm screen with the message, not the error screen.
const REJECTIONS: readonly ErrorCode[] = ['MFA_CANCELED', 'WALLET_USER_REJECTED']

const asPrepareError = (error: unknown): LatchkeyError =>
  error instanceof LatchkeyError
    ? error
    : new LatchkeyError('TRANSACTION_PREPARE_ERROR', undefined, { cause: error })

/**
 * The Solana confirm screen's states (spec 03 §4 "Solana transaction"):
 * prepare (fee, balance, instructions), approve, then the receipt or the
 * error screen, whose 'Retry transaction' gives the transaction a fresh
 * recent blockhash (`request.refresh`) and prepares it again. Missing funds
 * offer 'Add funds' when the app can fund, else Approve stays disabled.
 */
export function useSolanaTransactionFlow(
  request: SolanaTransactionRequest,
  { onResult, onExitChange }: SolanaTransactionCallbacks,
) {
  const [load, setLoad] = useState<Load>(() => ({ wire: request.transaction, seq: 0 }))
  const [preparation, setPreparation] = useState<Preparation>({
    prepared: null,
    error: null,
    loading: true,
  })
  const [view, setView] = useState<SolanaTransactionView>({ view: 'confirm' })
  const [status, setStatus] = useState<'idle' | 'submitting' | 'funding' | 'refreshing'>('idle')
  const [notice, setNotice] = useState<ErrorCode | null>(null)
  const exit = useRef(onExitChange)
  exit.current = onExitChange
  const usdPrice = useUsdPrice(request.usdPrice)

  useEffect(() => {
    let live = true
    setPreparation({ prepared: null, error: null, loading: true })
    request.prepare(load.wire).then(
      (prepared) => live && setPreparation({ prepared, error: null, loading: false }),
      (error: unknown) =>
        live && setPreparation({ prepared: null, error: asPrepareError(error), loading: false }),
    )
    return () => {
      live = false
    }
  }, [request, load])

  // Closing while nothing can be signed reports why, not a rejection.
  useEffect(() => {
    exit.current?.(preparation.error)
  }, [preparation.error])

  const reload = (wire = load.wire) => setLoad((current) => ({ wire, seq: current.seq + 1 }))

  const fail = (error: unknown) => {
    const failure = solanaFailure(error)
    exit.current?.(
      error instanceof LatchkeyError
        ? error
        : new LatchkeyError('TRANSACTION_FAILURE', failure.title, { cause: error }),
    )
    setView({ view: 'error', failure })
  }

  const submit = async () => {
    if (!preparation.prepared) return
    setStatus('submitting')
    setNotice(null)
    try {
      const result = await request.submit(load.wire)
      // Closing from here on resolves with the result instead of a rejection.
      onResult(result)
      setView({ view: 'receipt', result })
    } catch (error) {
      if (error instanceof LatchkeyError && error.code === 'RECOVERY_REQUIRED' && request.recovery)
        return setView({ view: 'recovering', needs: recoveryMethodOf(error) })
      if (error instanceof LatchkeyError && REJECTIONS.includes(error.code))
        return setNotice(error.code)
      fail(error)
    } finally {
      setStatus('idle')
    }
  }

  /** 'Retry transaction': the same transaction on a fresh recent blockhash, prepared again. */
  const retry = async () => {
    if (view.view !== 'error') return
    setStatus('refreshing')
    try {
      const wire = await request.refresh(load.wire)
      exit.current?.(null)
      reload(wire)
      setView({ view: 'confirm' })
    } catch (error) {
      fail(error)
    } finally {
      setStatus('idle')
    }
  }

  const prepared = preparation.prepared
  /** What the wallet must hold: the lamports it sends plus the fee (spec 03 §4 'Add funds'). */
  const needed = prepared ? lamportsSent(prepared.instructions, request.address) + prepared.fee : 0n

  /** 'Add funds': the funding flow in place of the confirm screen; a refusal is the screen's notice. */
  const addFunds = async () => {
    if (!prepared || !request.addFunds) return
    setStatus('funding')
    setNotice(null)
    try {
      setView({ view: 'funding', request: await request.addFunds(needed) })
    } catch (error) {
      setNotice(error instanceof LatchkeyError ? error.code : 'FUNDING_FAILED')
    } finally {
      setStatus('idle')
    }
  }

  /** Funding closed: back on the confirm screen, prepared again to check the balance. */
  const closeFunding = () => {
    setView({ view: 'confirm' })
    reload()
  }

  const needsFunds = prepared !== null && !prepared.hasFunds
  return {
    wire: load.wire,
    prepared,
    prepareError: preparation.error,
    loading: preparation.loading,
    /** SOL's USD price (spec 03 §7); null: no dollar values. */
    usdPrice,
    view,
    status,
    notice,
    needsFunds,
    canSubmit: status === 'idle' && !preparation.loading && prepared !== null && !needsFunds,
    submit,
    retry,
    addFunds,
    closeFunding,
    /** Prepare again (the prepare warning's 'Retry'). */
    reprepare: () => reload(),
    /** The wallet is usable again after recovery: submit as asked. */
    resume: () => {
      setView({ view: 'confirm' })
      void submit()
    },
  }
}

export type SolanaTransactionFlow = ReturnType<typeof useSolanaTransactionFlow>
