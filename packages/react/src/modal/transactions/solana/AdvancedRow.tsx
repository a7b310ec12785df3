import type { SolanaInstruction } from '@latchkey/core/solana'
import { Disclosure } from '../rows/Disclosure.tsx'
import { instructionSummary } from './solana-display.ts'

/**
 * 'Advanced', folded (spec 03 §2): every instruction of the transaction in
 * order, its type and key fields; one the decoder does not know shows its
 * program and discriminator.
 */
export function AdvancedRow({ instructions }: { instructions: readonly SolanaInstruction[] }) {
  return (
    <Disclosure label="Advanced">
      {(id) => (
        <ol
          className="lk-details lk-stack"
          id={id}
          style={{ margin: 0, listStyle: 'none' }}
          data-testid="lk-tx-instructions"
        >
          {instructions.map((instruction, i) => {
            const { title, fields } = instructionSummary(instruction)
            return (
              // biome-ignore lint/suspicious/noArrayIndexKey: instructions are positional
              <li key={i} data-testid="lk-tx-instruction">
                <p className="lk-details-label">{title}</p>
                <pre className="lk-details-text">
                  {fields.map(([label, value]) => `${label}: ${value}`).join('\n')}
                </pre>
              </li>
            )
          })}
        </ol>
      )}
    </Disclosure>
  )
}
