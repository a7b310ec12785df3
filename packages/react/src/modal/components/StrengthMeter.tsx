import type { PasswordStrength } from '../password.ts'

const LEVEL: Record<PasswordStrength, number> = { Weak: 1, Medium: 2, Strong: 3 }

/** Spec 02: the password's strength as three bars and a word (Weak, Medium, Strong). */
export function StrengthMeter({ strength }: { strength: PasswordStrength }) {
  return (
    <div className="lk-strength" data-strength={strength.toLowerCase()}>
      <span className="lk-strength-bars" aria-hidden="true">
        {[1, 2, 3].map((bar) => (
          <span key={bar} data-on={bar <= LEVEL[strength] ? true : undefined} />
        ))}
      </span>
      <span data-testid="lk-password-strength">
        Strength: <strong>{strength}</strong>
      </span>
    </div>
  )
}
