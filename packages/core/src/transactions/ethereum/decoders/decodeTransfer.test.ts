import { encodeFunctionData, erc20Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeTransfer } from './decodeTransfer.ts'

const recipient = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('decodeTransfer', () => {
  it('reads the recipient and amount of an ERC-20 transfer', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient, 1_500_000n],
    })
    expect(data.slice(0, 10)).toBe('0xa9059cbb')
    expect(decodeTransfer(data)).toEqual({
      action: 'transfer',
      functionName: 'transfer',
      isErc20Ish: true,
      isNFTIsh: false,
      transferTo: recipient,
      amount: 1_500_000n,
      args: [recipient, 1_500_000n],
    })
  })

  it('decodes hand-written calldata with a lower-case address into a checksummed one', () => {
    const data =
      `0xa9059cbb${recipient.slice(2).toLowerCase().padStart(64, '0')}${(10n ** 18n).toString(16).padStart(64, '0')}` as const
    expect(decodeTransfer(data)).toMatchObject({ transferTo: recipient, amount: 10n ** 18n })
  })

  it('answers undefined for transferFrom, which has another selector', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transferFrom',
      args: [recipient, recipient, 1n],
    })
    expect(decodeTransfer(data)).toBeUndefined()
  })
})
