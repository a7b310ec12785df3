import { encodeFunctionData, erc721Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeErc721SafeTransferFrom } from './decodeErc721SafeTransferFrom.ts'

const owner = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const recipient = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('decodeErc721SafeTransferFrom', () => {
  it('reads the three-argument overload', () => {
    const data = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'safeTransferFrom',
      args: [owner, recipient, 42n],
    })
    expect(data.slice(0, 10)).toBe('0x42842e0e')
    expect(decodeErc721SafeTransferFrom(data)).toEqual({
      action: 'transfer',
      functionName: 'safeTransferFrom',
      isErc20Ish: false,
      isNFTIsh: true,
      transferFrom: owner,
      transferTo: recipient,
      tokenId: 42n,
      args: [owner, recipient, 42n],
    })
  })

  it('reads the overload with data and keeps the data in args', () => {
    const data = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'safeTransferFrom',
      args: [owner, recipient, 43n, '0xc0ffee'],
    })
    expect(data.slice(0, 10)).toBe('0xb88d4fde')
    expect(decodeErc721SafeTransferFrom(data)).toMatchObject({
      transferFrom: owner,
      transferTo: recipient,
      tokenId: 43n,
      args: [owner, recipient, 43n, '0xc0ffee'],
    })
  })

  it('answers undefined for the ERC-1155 safeTransferFrom', () => {
    const erc1155 = [
      {
        type: 'function',
        name: 'safeTransferFrom',
        stateMutability: 'nonpayable',
        inputs: [
          { name: 'from', type: 'address' },
          { name: 'to', type: 'address' },
          { name: 'id', type: 'uint256' },
          { name: 'value', type: 'uint256' },
          { name: 'data', type: 'bytes' },
        ],
        outputs: [],
      },
    ] as const
    const data = encodeFunctionData({
      abi: erc1155,
      functionName: 'safeTransferFrom',
      args: [owner, recipient, 1n, 2n, '0x'],
    })
    expect(decodeErc721SafeTransferFrom(data)).toBeUndefined()
  })
})
