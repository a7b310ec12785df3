import { encodeFunctionData, erc20Abi, erc721Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeSetApprovalForAll } from './decodeSetApprovalForAll.ts'

const operator = '0x00000000000000ADc04C56Bf30aC9d3c0aAF14dC'

describe('decodeSetApprovalForAll', () => {
  it('reads a grant to an operator', () => {
    const data = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'setApprovalForAll',
      args: [operator, true],
    })
    expect(data.slice(0, 10)).toBe('0xa22cb465')
    expect(decodeSetApprovalForAll(data)).toEqual({
      action: 'approve',
      functionName: 'setApprovalForAll',
      isErc20Ish: false,
      isNFTIsh: true,
      operator,
      approved: true,
      args: [operator, true],
    })
  })

  it('reads a revocation', () => {
    const data = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'setApprovalForAll',
      args: [operator, false],
    })
    expect(decodeSetApprovalForAll(data)).toMatchObject({ operator, approved: false })
  })

  it('answers undefined for an ERC-20 approve', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [operator, 1n],
    })
    expect(decodeSetApprovalForAll(data)).toBeUndefined()
  })
})
