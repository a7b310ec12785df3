import { LatchkeyError, sanitizeFundingAmount } from '@latchkey/core'
import type { ConnectedExternalWallet } from '@latchkey/core/external'
import { useState } from 'react'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { shortHex } from '../transactions/ethereum-display.ts'
import { FundingAlert } from './message.tsx'
import type { FundingToken, FundWalletRequest } from './request.ts'
import { AmountStep, ProgressStep } from './steps.tsx'
import { WalletPicker } from './WalletPicker.tsx'

export interface TransferFromWalletScreenProps {
  request: FundWalletRequest
  token: FundingToken
  onBack(): void
  /** The transfer landed: on to the success screen. */
  onTransferred(amount: string): void
  /** Bridging is offered: 'Transfer from another network' opens its source picker. */
  onOtherNetwork?: () => void
}

type Step =
  | { name: 'pick' }
  | { name: 'amount'; wallet: ConnectedExternalWallet }
  | { name: 'sending'; wallet: ConnectedExternalWallet; hash: string | null }

/**
 * Spec 03 "Transfer from wallet": the user's connected wallets and more to
 * connect, then 'Confirm or edit amount' (digits and one decimal point;
 * Continue only above 0), then the wallet's own confirmation and the
 * transfer pending until it lands.
 */
export function TransferFromWalletScreen({
  request,
  token,
  onBack,
  onTransferred,
  onOtherNetwork,
}: TransferFromWalletScreenProps) {
  const [step, setStep] = useState<Step>({ name: 'pick' })
  const [amount, setAmount] = useState(() => sanitizeFundingAmount(request.amount))
  const [error, setError] = useState<LatchkeyError | null>(null)

  async function send(wallet: ConnectedExternalWallet) {
    setError(null)
    setStep({ name: 'sending', wallet, hash: null })
    try {
      await request.transfer(wallet, amount, token, (hash) =>
        setStep({ name: 'sending', wallet, hash }),
      )
      onTransferred(amount)
    } catch (e) {
      setError(
        e instanceof LatchkeyError
          ? e
          : new LatchkeyError('FUNDING_FAILED', undefined, { cause: e }),
      )
      setStep({ name: 'amount', wallet })
    }
  }

  if (step.name === 'sending')
    return (
      <ProgressStep
        title="Transfer from wallet"
        heading={step.hash ? 'Transfer in progress' : `Confirm in ${step.wallet.meta.name}`}
        text={
          step.hash
            ? `Sending ${amount} ${token.symbol} to your wallet on ${request.network}.`
            : 'Approve the transfer in your wallet to continue.'
        }
      />
    )

  if (step.name === 'amount')
    return (
      <AmountStep
        subtitle={`From ${step.wallet.meta.name} (${shortHex(step.wallet.address)}) to your wallet on ${request.network}.`}
        error={error}
        amount={amount}
        symbol={token.symbol}
        onChange={setAmount}
        onContinue={() => void send(step.wallet)}
        onBack={() => {
          setError(null)
          setStep({ name: 'pick' })
        }}
      />
    )

  return (
    <ScreenLayout title="Transfer from wallet" onBack={onBack}>
      <div className="lk-stack">
        <FundingAlert error={error} />
        <WalletPicker
          request={request}
          chainType={request.chainType}
          onPick={(wallet) => setStep({ name: 'amount', wallet })}
          onError={setError}
        />
        {onOtherNetwork && (
          <button type="button" className="lk-btn lk-btn-secondary" onClick={onOtherNetwork}>
            Transfer from another network
          </button>
        )}
      </div>
    </ScreenLayout>
  )
}
