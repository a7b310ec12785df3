import type { LatchkeyError } from '@latchkey/core'
import type { CardProvider, FundingMethod } from '@latchkey/protocol/schemas'
import { useChrome } from '../components/chrome.ts'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { FundingAlert } from './message.tsx'
import type { FundWalletRequest } from './request.ts'

/** Spec 03 §2: shown when an alternate card provider exists and the last one failed. */
export const ALTERNATE_PROVIDER_HINT =
  'Having trouble or facing location restrictions? Try a different provider.'

const LABELS: Record<FundingMethod, string> = {
  card: 'Pay with card',
  exchange: 'Transfer from an exchange',
  wallets: 'Transfer from wallet',
  manual: 'Receive funds',
}

/** The express-checkout badge 'Pay with card' carries where the device has it. */
export function paymentBadge(
  env: { ApplePaySession?: { canMakePayments?: () => boolean } } = globalThis as never,
  userAgent = globalThis.navigator?.userAgent ?? '',
): 'Apple Pay' | 'Google Pay' | null {
  try {
    if (env.ApplePaySession?.canMakePayments?.()) return 'Apple Pay'
  } catch {
    // Safari throws outside a secure context: no badge.
  }
  return /Android/i.test(userAgent) ? 'Google Pay' : null
}

export interface FundingChooserScreenProps {
  request: FundWalletRequest
  /** The methods to offer, in order (one button each). */
  methods: FundingMethod[]
  /** The asset's details are loading (an ERC-20's): the buttons wait. */
  loading: boolean
  /** An earlier attempt's failure. */
  error: LatchkeyError | null
  /** The other card provider, offered after a failure. */
  alternate: CardProvider | null
  onChoose(method: FundingMethod): void
  onAlternate(provider: CardProvider): void
}

/**
 * Spec 03 "Funding method chooser": 'Add funds to your {wallet name} wallet'
 * (or the configured title), one button per offered method, the error
 * banner of a failed attempt and the alternate-provider hint.
 */
export function FundingChooserScreen({
  request,
  methods,
  loading,
  error,
  alternate,
  onChoose,
  onAlternate,
}: FundingChooserScreenProps) {
  const title =
    request.uiConfig.landing?.title ??
    (request.walletName
      ? `Add funds to your ${request.walletName} wallet`
      : 'Add funds to your wallet')
  const badge = paymentBadge()
  // From a confirm screen's 'Add funds' (spec 03 §3): back returns to the transaction.
  const { onClose } = useChrome()
  const back = request.comingFromSendTransactionScreen ? onClose : undefined
  return (
    <ScreenLayout title={title} onBack={back}>
      <div className="lk-stack">
        <FundingAlert error={error} />
        <div className="lk-options">
          {methods.map((method) => (
            <button
              key={method}
              type="button"
              className="lk-option"
              disabled={loading}
              aria-busy={loading || undefined}
              onClick={() => onChoose(method)}
            >
              <span>{LABELS[method]}</span>
              {method === 'card' && badge && <em className="lk-chip lk-fund-badge">{badge}</em>}
              {method === 'card' && request.chainType === 'solana' && (
                <em className="lk-chip lk-fund-badge">Solana</em>
              )}
            </button>
          ))}
        </div>
        {alternate && (
          <button
            type="button"
            className="lk-link-btn lk-fund-hint"
            onClick={() => onAlternate(alternate)}
          >
            {ALTERNATE_PROVIDER_HINT}
          </button>
        )}
      </div>
    </ScreenLayout>
  )
}
