import { formatTokenAmount } from '@latchkey/core/transactions'
import { useEffect, useState } from 'react'
import { CheckIcon, CopyIcon } from '../components/icons.tsx'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { useCopyFeedback } from '../components/useCopyFeedback.ts'
import { QrCode } from '../methods/wallet/QrCode.tsx'
import { FundingWalletCard } from './FundingWalletCard.tsx'
import type { BalanceUpdate, FundingToken, FundWalletRequest } from './request.ts'

/** Spec 03 §9: the QR code is 240 px, as the authenticator's. */
export const RECEIVE_QR_SIZE_PX = 240

/** 'Receive {amount} {symbol}' ('Receive {symbol}' without an amount). */
export function receiveTitle(amount: string, symbol: string): string {
  return Number(amount) > 0 ? `Receive ${amount} ${symbol}` : `Receive ${symbol}`
}

export const receiveSubtitle = (network: string) =>
  `Scan this code or copy your wallet address to receive funds on ${network}.`

/**
 * Spec 03 §2 "A note to send funds on the named network": a line of its
 * own, shown whatever the UI config does with the title and subtitle.
 */
export const receiveNetworkNote = (network: string) => `Only send funds on ${network}.`

export interface ReceiveFundsScreenProps {
  request: FundWalletRequest
  token: FundingToken
  onBack(): void
  /** The balance rose: the user pressed Continue. */
  onContinue(): void
  /** The balance rose (once): the success event. */
  onFunded(): void
}

/**
 * Spec 03 "Receive funds": a QR code of the chain and address (EIP-681, or
 * Solana Pay with the token parameter for USDC), the network note, the
 * copyable address and the wallet's balance polled every 2 s; Continue once
 * it rose, the card green once it holds the requested amount.
 */
export function ReceiveFundsScreen({
  request,
  token,
  onBack,
  onContinue,
  onFunded,
}: ReceiveFundsScreenProps) {
  const [update, setUpdate] = useState<BalanceUpdate | null>(null)
  const { copy, copied, confirmIcon } = useCopyFeedback()
  const funded = update?.funded ?? false

  useEffect(() => {
    const controller = new AbortController()
    request.watchBalance(token, setUpdate, controller.signal)
    return () => controller.abort()
  }, [request, token])
  useEffect(() => {
    if (funded) onFunded()
  }, [funded, onFunded])

  const { receiveFundsTitle, receiveFundsSubtitle } = request.uiConfig
  const title =
    receiveFundsTitle === null
      ? ''
      : (receiveFundsTitle ?? receiveTitle(request.amount, token.symbol))
  const subtitle =
    receiveFundsSubtitle === null
      ? undefined
      : (receiveFundsSubtitle ?? receiveSubtitle(request.network))
  const balance =
    update === null
      ? undefined
      : `${formatTokenAmount(update.balance, token.decimals)} ${token.symbol}`
  return (
    <ScreenLayout title={title} subtitle={subtitle} onBack={onBack}>
      <div className="lk-stack">
        <div className="lk-qr-wrap">
          <QrCode
            value={request.paymentUri(token)}
            size={RECEIVE_QR_SIZE_PX}
            label={`QR code to send ${token.symbol} to your wallet`}
          />
        </div>
        <p className="lk-fund-network">{receiveNetworkNote(request.network)}</p>
        <div className="lk-fund-address">
          <code data-testid="lk-fund-address">{request.address}</code>
          <button
            type="button"
            className="lk-icon-btn"
            aria-label={copied ? 'Copied' : 'Copy address'}
            onClick={() => copy(request.address)}
          >
            {confirmIcon ? <CheckIcon /> : <CopyIcon />}
          </button>
        </div>
        <FundingWalletCard
          address={request.address}
          balance={balance}
          enough={update?.enough ?? false}
        />
        {funded && (
          <div className="lk-actions">
            <p className="lk-visually-hidden" role="status">
              Funds received
            </p>
            <button type="button" className="lk-btn lk-btn-primary" onClick={onContinue}>
              Continue
            </button>
          </div>
        )}
      </div>
    </ScreenLayout>
  )
}
