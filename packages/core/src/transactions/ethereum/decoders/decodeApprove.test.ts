import { encodeFunctionData, erc20Abi, erc721Abi, maxUint256, parseUnits } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeApprove } from './decodeApprove.ts'

const spender = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'

describe('decodeApprove', () => {
  it('reads an ERC-20 allowance when the token is ERC-20', () => {
    const amount = parseUnits('250', 6)
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [spender, amount],
    })
    expect(data.slice(0, 10)).toBe('0x095ea7b3')
    expect(decodeApprove(data, 'erc20')).toEqual({
      action: 'approve',
      functionName: 'approve',
      isErc20Ish: true,
      isNFTIsh: false,
      spender,
      amount: 250_000_000n,
      args: [spender, 250_000_000n],
    })
  })

  it('defaults to an ERC-20 allowance without a token kind', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [spender, maxUint256],
    })
    const details = decodeApprove(data)
    expect(details).toMatchObject({ isErc20Ish: true, isNFTIsh: false, amount: maxUint256 })
    expect(details?.tokenId).toBeUndefined()
  })

  it('reads a token id when the token is ERC-721', () => {
    const data = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'approve',
      args: [spender, 42n],
    })
    const details = decodeApprove(data, 'erc721')
    expect(details).toEqual({
      action: 'approve',
      functionName: 'approve',
      isErc20Ish: false,
      isNFTIsh: true,
      spender,
      tokenId: 42n,
      args: [spender, 42n],
    })
    expect(details?.amount).toBeUndefined()
  })

  it('answers undefined for another function', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transfer',
      args: [spender, 1n],
    })
    expect(decodeApprove(data)).toBeUndefined()
  })
})
