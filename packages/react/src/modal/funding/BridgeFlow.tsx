import { LatchkeyError, sanitizeFundingAmount, toLatchkeyError } from '@latchkey/core'
import type {
  ConnectedEthereumExternalWallet,
  ConnectedSolanaExternalWallet,
} from '@latchkey/core/external'
import { useState } from 'react'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { shortHex } from '../transactions/ethereum-display.ts'
import { FundingAlert } from './message.tsx'
import type { BridgeOption, BridgeStep, FundWalletRequest } from './request.ts'
import { AmountStep, ProgressStep } from './steps.tsx'
import { WalletPicker } from './WalletPicker.tsx'

type SourceWallet = ConnectedEthereumExternalWallet | ConnectedSolanaExternalWallet

/** What one bridge direction does: quote per option, then deposit and follow. */
export interface BridgeDirection<W extends SourceWallet> {
  /** The source wallets' chain: which external wallets the picker lists. */
  from: W['type']
  /** The symbol the amount is asked in (the destination's currency). */
  symbol: string
  /** Spinner text while quoting. */
  quoting: string
  /** Spinner text per deposit step. */
  steps: Record<BridgeStep, [string, string]>
  options(wallet: W, amount: string): Promise<BridgeOption[]>
  send(wallet: W, option: BridgeOption, onStep: (step: BridgeStep) => void): Promise<void>
  /** The success line once the funds arrived (the modal closes 4 s later). */
  successLine(amount: string): string
}

type Step<W> =
  | { name: 'pick' }
  | { name: 'amount'; wallet: W }
  | { name: 'quoting'; wallet: W }
  | { name: 'options'; wallet: W; options: BridgeOption[] }
  | { name: 'sending'; wallet: W; at: BridgeStep }

export interface BridgeFlowProps<W extends SourceWallet> {
  request: FundWalletRequest
  direction: BridgeDirection<W>
  onBack(): void
  onBridged(amount: string, line: string): void
}

/**
 * Spec 03 'Transfer from another network' (Solana bridge-funding, and the
 * same the other way): an external wallet of the other chain, the amount,
 * one option per place the wallet can pay from (what it pays there), the
 * deposit, and the bridge followed until the funds arrive. A failure shows
 * its message on the amount step; a refunded or failed bridge links to the
 * refund status.
 */
export function BridgeFlow<W extends SourceWallet>({
  request,
  direction,
  onBack,
  onBridged,
}: BridgeFlowProps<W>) {
  const [step, setStep] = useState<Step<W>>({ name: 'pick' })
  const [amount, setAmount] = useState(() => sanitizeFundingAmount(request.amount))
  const [error, setError] = useState<LatchkeyError | null>(null)

  async function quote(wallet: W) {
    setError(null)
    setStep({ name: 'quoting', wallet })
    try {
      setStep({ name: 'options', wallet, options: await direction.options(wallet, amount) })
    } catch (e) {
      setError(toLatchkeyError(e))
      setStep({ name: 'amount', wallet })
    }
  }

  async function send(wallet: W, option: BridgeOption) {
    setError(null)
    setStep({ name: 'sending', wallet, at: 'confirm' })
    try {
      await direction.send(wallet, option, (at) => setStep({ name: 'sending', wallet, at }))
      onBridged(amount, direction.successLine(amount))
    } catch (e) {
      setError(
        e instanceof LatchkeyError
          ? e
          : new LatchkeyError('FUNDING_FAILED', undefined, { cause: e }),
      )
      setStep({ name: 'amount', wallet })
    }
  }

  if (step.name === 'sending' || step.name === 'quoting') {
    const [title, text] =
      step.name === 'quoting' ? ['Finding your funds', direction.quoting] : direction.steps[step.at]
    return <ProgressStep title="Transfer from another network" heading={title} text={text} />
  }

  if (step.name === 'options')
    return (
      <ScreenLayout
        title="Transfer from another network"
        subtitle={`${amount} ${direction.symbol} to your wallet on ${request.network}, from ${shortHex(step.wallet.address)}.`}
        onBack={() => setStep({ name: 'amount', wallet: step.wallet })}
      >
        <ul className="lk-options lk-fund-options">
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
      <AmountStep
        subtitle={`Bridge from ${step.wallet.meta.name} (${shortHex(step.wallet.address)}) to your wallet on ${request.network}.`}
        error={error}
        amount={amount}
        symbol={direction.symbol}
        onChange={setAmount}
        onContinue={() => void quote(step.wallet)}
        onBack={() => {
          setError(null)
          setStep({ name: 'pick' })
        }}
      />
    )

  return (
    <ScreenLayout title="Transfer from another network" onBack={onBack}>
      <div className="lk-stack">
        <FundingAlert error={error} />
        <WalletPicker
          request={request}
          chainType={direction.from}
          onPick={(wallet) =>
            wallet.type === direction.from && setStep({ name: 'amount', wallet: wallet as W })
          }
          onError={setError}
        />
      </div>
    </ScreenLayout>
  )
}
