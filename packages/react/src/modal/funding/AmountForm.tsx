import { isFundingAmountValid, sanitizeFundingAmount } from '@latchkey/core'

export interface AmountFormProps {
  amount: string
  symbol: string
  onChange(amount: string): void
  onContinue(): void
}

/**
 * 'Confirm or edit amount' (spec 03 §5): only digits and at most one
 * decimal point; Continue is disabled unless the amount is above 0.
 */
export function AmountForm({ amount, symbol, onChange, onContinue }: AmountFormProps) {
  return (
    <>
      <label className="lk-field-label" htmlFor="lk-fund-amount">
        Amount
      </label>
      <div className="lk-input-wrap">
        <input
          id="lk-fund-amount"
          className="lk-input"
          inputMode="decimal"
          autoComplete="off"
          value={amount}
          onChange={(e) => onChange(sanitizeFundingAmount(e.target.value))}
        />
        <span className="lk-input-icon">{symbol}</span>
      </div>
      <div className="lk-actions">
        <button
          type="button"
          className="lk-btn lk-btn-primary"
          disabled={!isFundingAmountValid(amount)}
          onClick={onContinue}
        >
          Continue
        </button>
      </div>
    </>
  )
}
