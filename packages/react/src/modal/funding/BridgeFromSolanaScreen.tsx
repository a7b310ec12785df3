import { LatchkeyError, sanitizeFundingAmount, toLatchkeyError } from '@latchkey/core'
import type { ConnectedSolanaExternalWallet } from '@latchkey/core/external'
import { useState } from 'react'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { shortHex } from '../transactions/ethereum-display.ts'
import { AmountForm } from './AmountForm.tsx'
import { FundingAlert } from './message.tsx'
import type { BridgeOption, BridgeStep, FundingToken, FundWalletRequest } from './request.ts'
import { WalletPicker } from './WalletPicker.tsx'

/** The success line of a bridge to Ethereum, worded as spec 03's Solana one (closes 4 s later). */
export const bridgeToEthereumSuccessLine = (amount: string, symbol: string, app: string | null) =>
  `Success! You’ve successfully added ${amount} ${symbol} to your ${app ?? 'embedded'} wallet. It may take a minute before the funds are available to use.`

type Step =
  | { name: 'pick' }
  | { name: 'amount'; wallet: ConnectedSolanaExternalWallet }
  | { name: 'quoting'; wallet: ConnectedSolanaExternalWallet }
  | { name: 'options'; wallet: ConnectedSolanaExternalWallet; options: BridgeOption[] }
  | { name: 'sending'; wallet: ConnectedSolanaExternalWallet; at: BridgeStep }

export interface BridgeFromSolanaScreenProps {
  request: FundWalletRequest & {
    bridgeFromSolana: NonNullable<FundWalletRequest['bridgeFromSolana']>
  }
  /** The chain's native currency: what the amount is asked in. */
  token: FundingToken
  onBack(): void
  /** The funds arrived: the success screen with this line. */
  onBridged(amount: string, line: string): void
}

/**
 * Spec 03 'Transfer from another network', Solana → Ethereum: an external
 * Solana wallet, the amount of the chain's currency, the SOL it costs
 * (the wallet's balance beside it), the deposit signed in the wallet, and
 * the bridge followed until the funds arrive. A failure shows its message;
 * a refunded or failed bridge links to the refund status.
 */
export function BridgeFromSolanaScreen({
  request,
  token,
  onBack,
  onBridged,
}: BridgeFromSolanaScreenProps) {
  const [step, setStep] = useState<Step>({ name: 'pick' })
  const [amount, setAmount] = useState(() => sanitizeFundingAmount(request.amount))
  const [error, setError] = useState<LatchkeyError | null>(null)
  const bridge = request.bridgeFromSolana
  const stepText: Record<BridgeStep, [string, string]> = {
    confirm: ['Confirm in your wallet', 'Approve the deposit in your wallet to continue.'],
    submitted: ['Deposit in progress', 'Waiting for the deposit to be confirmed.'],
    bridging: [
      `Bridging to ${request.network}`,
      'Your funds are on their way. This usually takes a minute.',
    ],
  }

  async function quote(wallet: ConnectedSolanaExternalWallet) {
    setError(null)
    setStep({ name: 'quoting', wallet })
    try {
      setStep({ name: 'options', wallet, options: await bridge.options(wallet, amount) })
    } catch (e) {
      setError(toLatchkeyError(e))
      setStep({ name: 'amount', wallet })
    }
  }

  async function send(wallet: ConnectedSolanaExternalWallet, option: BridgeOption) {
    setError(null)
    setStep({ name: 'sending', wallet, at: 'confirm' })
    try {
      await bridge.send(wallet, option, (at) => setStep({ name: 'sending', wallet, at }))
      onBridged(amount, bridgeToEthereumSuccessLine(amount, token.symbol, request.walletName))
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
      step.name === 'quoting'
        ? ['Finding your funds', 'Checking your SOL balance and a bridge quote.']
        : stepText[step.at]
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
        subtitle={`${amount} ${token.symbol} to your wallet on ${request.network}, from ${shortHex(step.wallet.address)}.`}
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
        onBack={() => {
          setError(null)
          setStep({ name: 'pick' })
        }}
      >
        <div className="lk-stack">
          <FundingAlert error={error} />
          <AmountForm
            amount={amount}
            symbol={token.symbol}
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
          chainType="solana"
          onPick={(wallet) => wallet.type === 'solana' && setStep({ name: 'amount', wallet })}
          onError={setError}
        />
      </div>
    </ScreenLayout>
  )
}
