import { encodeFunctionData, erc20Abi, parseAbi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeCall } from './decodeCall.ts'

const abi = parseAbi(['function transfer(address to, uint256 amount)'])
const recipient = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('decodeCall', () => {
  it('decodes calldata whose selector is in the ABI', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient, 7n],
    })
    expect(decodeCall(abi, data)).toEqual({ functionName: 'transfer', args: [recipient, 7n] })
  })

  it('answers undefined for a selector that is not in the ABI', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [recipient, 7n],
    })
    expect(decodeCall(abi, data)).toBeUndefined()
  })

  it('answers undefined for truncated arguments instead of throwing', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [recipient, 7n],
    })
    expect(decodeCall(abi, data.slice(0, 40) as `0x${string}`)).toBeUndefined()
  })
})
