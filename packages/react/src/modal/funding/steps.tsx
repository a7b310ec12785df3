import type { LatchkeyError } from '@latchkey/core'
import { ScreenLayout } from '../components/ScreenLayout.tsx'
import { Spinner } from '../components/Spinner.tsx'
import { AmountForm } from './AmountForm.tsx'
import { FundingAlert } from './message.tsx'

/** Spec 03 'Confirm or edit amount': an earlier failure above, the amount, Continue. */
export function AmountStep(props: {
  subtitle: string
  error: LatchkeyError | null
  amount: string
  symbol: string
  onChange(amount: string): void
  onContinue(): void
  onBack(): void
}) {
  return (
    <ScreenLayout title="Confirm or edit amount" subtitle={props.subtitle} onBack={props.onBack}>
      <div className="lk-stack">
        <FundingAlert error={props.error} />
        <AmountForm
          amount={props.amount}
          symbol={props.symbol}
          onChange={props.onChange}
          onContinue={props.onContinue}
        />
      </div>
    </ScreenLayout>
  )
}

/** A step in progress: a spinner, what is happening, what the user waits for. */
export function ProgressStep({
  title,
  heading,
  text,
}: {
  title: string
  heading: string
  text: string
}) {
  return (
    <ScreenLayout title={title}>
      <div className="lk-fund-status" role="status">
        <Spinner />
        <h3>{heading}</h3>
        <p>{text}</p>
      </div>
    </ScreenLayout>
  )
}
