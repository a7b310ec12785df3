import { LatchkeyError } from '@latchkey/core'
import type {
  EthereumTransactionInput,
  PreparedEthereumTransaction,
} from '@latchkey/core/transactions'
import { useEffect, useState } from 'react'
import type {
  EthereumScanOutcome,
  EthereumStepPreview,
  EthereumTransactionRequest,
} from '../../transaction-requests.ts'

/** Spec 03 §4 "optional scan": uninitiated until the step is prepared, then in progress, then its outcome. */
export type ScanState = { status: 'uninitiated' } | { status: 'in progress' } | EthereumScanOutcome

/** Which step to show, and with what input; `seq` reloads it (a retry, funds added). */
export interface StepLoad {
  index: number
  input: EthereumTransactionInput
  seq: number
}

export interface EthereumStepState {
  /** Null while loading. */
  preview: EthereumStepPreview | null
  prepared: PreparedEthereumTransaction | null
  /** Why there is nothing to sign (spec 03 §8: TRANSACTION_PREPARE_FAILED, TRANSACTION_PREPARE_ERROR, …). */
  prepareError: LatchkeyError | null
  scan: ScanState
  /** Preview or prepare still running. */
  loading: boolean
}

// A preview that failed (the token contract could not be read) is shown plain.
const PLAIN_PREVIEW: EthereumStepPreview = {
  decoded: { action: 'transaction', isErc20Ish: false, isNFTIsh: false, args: [] },
  token: null,
}

const INITIAL: EthereumStepState = {
  preview: null,
  prepared: null,
  prepareError: null,
  scan: { status: 'uninitiated' },
  loading: true,
}

const asPrepareError = (error: unknown): LatchkeyError =>
  error instanceof LatchkeyError
    ? error
    : new LatchkeyError('TRANSACTION_PREPARE_ERROR', undefined, { cause: error })

/**
 * Loads one step for the confirm screen (spec 03 §4 "Ethereum transaction"):
 * the preview and the preparation at once, then the scan of what was
 * prepared. Each call is the request's (core's); an answer for a step the
 * screen has left is dropped.
 */
export function useEthereumStep(
  request: EthereumTransactionRequest,
  load: StepLoad,
): EthereumStepState {
  const [state, setState] = useState<EthereumStepState>(INITIAL)

  useEffect(() => {
    let live = true
    const update = (patch: Partial<EthereumStepState>) => {
      if (live) setState((current) => ({ ...current, ...patch }))
    }
    let pending = 2
    const settled = () => {
      pending -= 1
      if (pending === 0) update({ loading: false })
    }
    setState(INITIAL)
    request.preview(load.input).then(
      (preview) => {
        update({ preview })
        settled()
      },
      () => {
        update({ preview: PLAIN_PREVIEW })
        settled()
      },
    )
    request.prepare(load.input).then(
      (prepared) => {
        update({ prepared, scan: { status: 'in progress' } })
        settled()
        request.scan(prepared).then(
          (scan) => update({ scan }),
          () =>
            update({
              scan: { status: 'failed', source: 'app', message: 'Transaction scan failed' },
            }),
        )
      },
      (error: unknown) => {
        update({ prepareError: asPrepareError(error) })
        settled()
      },
    )
    return () => {
      live = false
    }
  }, [request, load])

  return state
}
