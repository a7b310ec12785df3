import { LatchkeyError, sanitizeFundingAmount, toLatchkeyError } from '@latchkey/core'
import type { ConnectedEthereumExternalWallet } from '@latchkey/core/external'
import { useState } from 'react'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { shortHex } from '../transactions/ethereum-display.ts'
import { AmountForm } from './AmountForm.tsx'
import { FundingAlert } from './message.tsx'
import type { BridgeOption, BridgeStep, FundWalletRequest } from './request.ts'
import { WalletPicker } from './WalletPicker.tsx'

/** Spec 03 "Solana bridge-funding": the success line (the modal closes 4 s later). */
export const bridgeSuccessLine = (amount: string, app: string | null) =>
  `Success! You’ve successfully added ${amount} SOL to your ${app ?? 'embedded'} wallet. It may take a minute before the funds are available to use.`

const STEP_TEXT: Record<BridgeStep, [string, string]> = {
  confirm: ['Confirm in your wallet', 'Approve the deposit in your wallet to continue.'],
  submitted: ['Deposit in progress', 'Waiting for the deposit to be confirmed.'],
  bridging: ['Bridging to Solana', 'Your funds are on their way. This usually takes a minute.'],
}

type Step =
  | { name: 'pick' }
  | { name: 'amount'; wallet: ConnectedEthereumExternalWallet }
  | { name: 'quoting'; wallet: ConnectedEthereumExternalWallet }
  | { name: 'options'; wallet: ConnectedEthereumExternalWallet; options: BridgeOption[] }
  | { name: 'sending'; wallet: ConnectedEthereumExternalWallet; at: BridgeStep }

export interface BridgeFromWalletScreenProps {
  request: FundWalletRequest & { bridge: NonNullable<FundWalletRequest['bridge']> }
  onBack(): void
  /** The SOL arrived: the success screen with this line. */
  onBridged(amount: string, line: string): void
}

/**
 * Spec 03 'Transfer from another network' (Solana bridge-funding): an
 * external Ethereum wallet, the SOL amount, then one option per chain the
 * wallet holds funds on (what it pays there), the deposit, and the bridge
 * followed until the SOL arrives. A failure shows its message; a refunded
 * or failed bridge links to the refund status.
 */
export function BridgeFromWalletScreen({
  request,
  onBack,
  onBridged,
}: BridgeFromWalletScreenProps) {
  const [step, setStep] = useState<Step>({ name: 'pick' })
  const [amount, setAmount] = useState(() => sanitizeFundingAmount(request.amount))
  const [error, setError] = useState<LatchkeyError | null>(null)

  async function quote(wallet: ConnectedEthereumExternalWallet) {
    setError(null)
    setStep({ name: 'quoting', wallet })
    try {
      setStep({ name: 'options', wallet, options: await request.bridge.options(wallet, amount) })
    } catch (e) {
      setError(toLatchkeyError(e))
      setStep({ name: 'amount', wallet })
    }
  }

  async function send(wallet: ConnectedEthereumExternalWallet, option: BridgeOption) {
    setError(null)
    setStep({ name: 'sending', wallet, at: 'confirm' })
    try {
      await request.bridge.send(wallet, option, (at) => setStep({ name: 'sending', wallet, at }))
      onBridged(amount, bridgeSuccessLine(amount, request.walletName))
    } catch (e) {
      setError(
        e instanceof LatchkeyError
          ? e
          : new LatchkeyError('FUNDING_FAILED', undefined, { cause: e }),
      )
      setStep({ name: 'amount', wallet })
    }
  }

  const back = () => {
    setError(null)
    setStep({ name: 'pick' })
  }

  if (step.name === 'sending' || step.name === 'quoting') {
    const [title, text] =
      step.name === 'quoting'
        ? ['Finding your funds', 'Checking balances and bridge quotes on your networks.']
        : STEP_TEXT[step.at]
    return (
      <ScreenLayout title="Transfer from another network">
        <div className="lk-fund-status" role="status">
          <Spinner />
          <h3>{title}</h3>
          <p>{text}</p>
        </div>
      </ScreenLayout>
    )
  }

  if (step.name === 'options')
    return (
      <ScreenLayout
        title="Transfer from another network"
        subtitle={`${amount} SOL to your wallet on ${request.network}, from ${shortHex(step.wallet.address)}.`}
        onBack={() => setStep({ name: 'amount', wallet: step.wallet })}
      >
        <ul className="lk-options">
          {step.options.map((option) => (
            <li key={option.chainId}>
              <button
                type="button"
                className="lk-option"
                onClick={() => void send(step.wallet, option)}
              >
                <span>{option.chainName}</span>
                <em className="lk-tx-usd">
                  Pay {option.pay} · balance {option.balance}
                </em>
              </button>
            </li>
          ))}
        </ul>
      </ScreenLayout>
    )

  if (step.name === 'amount')
    return (
      <ScreenLayout
        title="Confirm or edit amount"
        subtitle={`Bridge from ${step.wallet.meta.name} (${shortHex(step.wallet.address)}) to your wallet on ${request.network}.`}
        onBack={back}
      >
        <div className="lk-stack">
          <FundingAlert error={error} />
          <AmountForm
            amount={amount}
            symbol="SOL"
            onChange={setAmount}
            onContinue={() => void quote(step.wallet)}
          />
        </div>
      </ScreenLayout>
    )

  return (
    <ScreenLayout title="Transfer from another network" onBack={onBack}>
      <div className="lk-stack">
        <FundingAlert error={error} />
        <WalletPicker
          request={request}
          chainType="ethereum"
          onPick={(wallet) => wallet.type === 'ethereum' && setStep({ name: 'amount', wallet })}
          onError={setError}
        />
      </div>
    </ScreenLayout>
  )
}
