import { lazy, Suspense, useCallback, useRef } from 'react'
import { ChromeContext, useChrome } from '../components/chrome.ts'
import type { FundWalletRequest } from '../funding/request.ts'
import { LoadingScreen } from '../screens/LoadingScreen.tsx'

// The funding screens are their own chunk, loaded on the first 'Add funds'.
const FundWalletScreen = lazy(() => import('../funding/FundWalletScreen.tsx'))

export interface TransactionFundingProps {
  /** Built by the request's `addFunds` (`comingFromSendTransactionScreen`). */
  request: FundWalletRequest
  /** Funding ended: the confirm screen comes back and checks the balance again. */
  onClose(): void
}

/**
 * A confirm screen's 'Add funds' (spec 03 §3 `comingFromSendTransactionScreen`):
 * the funding flow drawn inside the transaction screen, so the transaction
 * (its steps, the promise the app awaits) stays as it was. Everything that
 * would close the modal from funding — the close button, Continue, a
 * success's 4 s — closes funding only.
 */
export function TransactionFunding({ request, onClose }: TransactionFundingProps) {
  const chrome = useChrome()
  // Stable: the funding screen's 4 s success timer restarts when its onClose changes.
  const latest = useRef(onClose)
  latest.current = onClose
  const close = useCallback(() => latest.current(), [])
  return (
    <ChromeContext.Provider value={{ ...chrome, onClose: close }}>
      <Suspense fallback={<LoadingScreen />}>
        <FundWalletScreen request={request} onFunded={() => {}} onClose={close} />
      </Suspense>
    </ChromeContext.Provider>
  )
}
