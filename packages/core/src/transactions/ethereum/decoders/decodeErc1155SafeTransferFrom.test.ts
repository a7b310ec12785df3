import { encodeFunctionData, erc721Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeErc1155SafeTransferFrom } from './decodeErc1155SafeTransferFrom.ts'

// EIP-1155's single transfer, written out as the standard gives it.
const erc1155Abi = [
  {
    type: 'function',
    name: 'safeTransferFrom',
    stateMutability: 'nonpayable',
    inputs: [
      { name: '_from', type: 'address' },
      { name: '_to', type: 'address' },
      { name: '_id', type: 'uint256' },
      { name: '_value', type: 'uint256' },
      { name: '_data', type: 'bytes' },
    ],
    outputs: [],
  },
] as const

const owner = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const recipient = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('decodeErc1155SafeTransferFrom', () => {
  it('reads the token id and amount', () => {
    const data = encodeFunctionData({
      abi: erc1155Abi,
      functionName: 'safeTransferFrom',
      args: [owner, recipient, 1n, 5n, '0x'],
    })
    expect(data.slice(0, 10)).toBe('0xf242432a')
    expect(decodeErc1155SafeTransferFrom(data)).toEqual({
      action: 'transfer',
      functionName: 'safeTransferFrom',
      isErc20Ish: false,
      isNFTIsh: true,
      transferFrom: owner,
      transferTo: recipient,
      tokenId: 1n,
      amount: 5n,
      args: [owner, recipient, 1n, 5n, '0x'],
    })
  })

  it('keeps the data bytes in args', () => {
    const data = encodeFunctionData({
      abi: erc1155Abi,
      functionName: 'safeTransferFrom',
      args: [owner, recipient, 2n, 1n, '0xdeadbeef'],
    })
    expect(decodeErc1155SafeTransferFrom(data)?.args[4]).toBe('0xdeadbeef')
  })

  it('answers undefined for the ERC-721 overloads of the same name', () => {
    const data = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'safeTransferFrom',
      args: [owner, recipient, 42n],
    })
    expect(decodeErc1155SafeTransferFrom(data)).toBeUndefined()
  })
})
