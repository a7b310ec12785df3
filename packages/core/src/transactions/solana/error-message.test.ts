// @vitest-environment node
import { describe, expect, it } from 'vitest'
import { SOLANA_FALLBACK_ERROR_MESSAGE, solanaErrorMessage } from './error-message.ts'

describe('solanaErrorMessage', () => {
  it("prefers the System Program's insufficient-lamports line", () => {
    const logs = [
      'Program 11111111111111111111111111111111 invoke [1]',
      'Transfer: insufficient lamports 999995000, need 5000000000',
      'Program 11111111111111111111111111111111 failed: custom program error: 0x1',
    ]
    expect(solanaErrorMessage(logs)).toBe(
      'Transfer: insufficient lamports 999995000, need 5000000000',
    )
  })

  it("takes the Token Program's insufficient-funds line without its 'Program log:' prefix", () => {
    const logs = [
      'Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA invoke [1]',
      'Program log: Instruction: TransferChecked',
      'Program log: Error: insufficient funds',
      'Program TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA failed: custom program error: 0x1',
    ]
    expect(solanaErrorMessage(logs)).toBe('Error: insufficient funds')
  })

  it("falls back to 'Something went wrong.' for other failures or no logs", () => {
    expect(SOLANA_FALLBACK_ERROR_MESSAGE).toBe('Something went wrong.')
    expect(solanaErrorMessage(['Program X failed: invalid instruction data'])).toBe(
      'Something went wrong.',
    )
    expect(solanaErrorMessage([])).toBe('Something went wrong.')
    expect(solanaErrorMessage(null)).toBe('Something went wrong.')
    expect(solanaErrorMessage(undefined)).toBe('Something went wrong.')
  })
})
