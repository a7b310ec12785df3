import type { DecodedEthereumTransaction } from '@latchkey/core/transactions'
import { maxUint256, parseEther } from 'viem'
import { anvil } from 'viem/chains'
import { describe, expect, it } from 'vitest'
import {
  approvalText,
  argsText,
  assetChangeText,
  shortHex,
  submitText,
  transactionTitle,
} from './ethereum-display.ts'
import { NFT, usdc } from './fixtures.test-helper.ts'

const decoded = (patch: Partial<DecodedEthereumTransaction>): DecodedEthereumTransaction => ({
  action: 'transaction',
  isErc20Ish: false,
  isNFTIsh: false,
  args: [],
  ...patch,
})

describe('transactionTitle', () => {
  it('prefers the app’s title, then its action, then what the call is', () => {
    const approval = decoded({ action: 'approve', isErc20Ish: true })
    expect(
      transactionTitle({ transactionInfo: { title: 'Mint', action: 'x' } }, approval, 0, 1),
    ).toBe('Mint')
    expect(transactionTitle({ transactionInfo: { action: 'swap' } }, approval, 0, 1)).toBe(
      'Approve swap',
    )
    expect(transactionTitle({}, approval, 0, 1)).toBe('Confirm address')
    expect(transactionTitle({}, decoded({ action: 'approve', isNFTIsh: true }), 0, 1)).toBe(
      'Confirm action',
    )
    expect(transactionTitle({}, decoded({ action: 'transfer' }), 0, 1)).toBe('Confirm transaction')
    expect(transactionTitle({}, null, 1, 3)).toBe('Confirm transaction (2 / 3)')
  })

  it("says 'Continue' before the last step, then the app's text or 'Approve'", () => {
    expect(submitText({ buttonText: 'Buy' }, false)).toBe('Continue')
    expect(submitText({ buttonText: 'Buy' }, true)).toBe('Buy')
    expect(submitText({}, true)).toBe('Approve')
  })
})

describe('amounts', () => {
  it("shows an allowance of 2^255 or more as 'Maximum'", () => {
    expect(approvalText(maxUint256, usdc)).toBe('Maximum')
    expect(approvalText(2n ** 255n, usdc)).toBe('Maximum')
    expect(approvalText(2_500_000n, usdc)).toBe('2.5 USDC')
    // No decimals from the contract: 18 (spec 03 §9).
    expect(approvalText(10n ** 18n, null)).toBe('1')
  })

  it('sums fungible changes and their dollar values; lists NFT ids; no dollars without a price', () => {
    const eth = { type: 'NATIVE' as const }
    expect(
      assetChangeText(
        {
          asset: eth,
          in: [],
          out: [
            { value: parseEther('0.25'), usd_price: 0.004 },
            { value: parseEther('0.25'), usd_price: 0.001 },
          ],
        },
        'out',
        anvil,
      ),
    ).toEqual({ amount: '0.5 ETH', usd: '<$0.01' })
    expect(assetChangeText({ asset: eth, in: [], out: [] }, 'out', anvil)).toBeNull()
    const punks = { type: 'ERC721' as const, address: NFT, symbol: 'PUNK' }
    expect(
      assetChangeText(
        {
          asset: punks,
          in: [
            { value: 1n, token_id: 7n },
            { value: 1n, token_id: 9n },
          ],
          out: [],
        },
        'in',
        anvil,
      ),
    ).toEqual({ amount: 'PUNK #7, #9' })
  })

  it('writes bigints in the Details arguments as decimals, and shortens hex', () => {
    expect(JSON.parse(argsText([maxUint256, true]))).toEqual([maxUint256.toString(), true])
    expect(shortHex('0x70997970C51812dc3A010C7d01b50e0d17dc79C8')).toBe('0x7099…79C8')
  })
})
