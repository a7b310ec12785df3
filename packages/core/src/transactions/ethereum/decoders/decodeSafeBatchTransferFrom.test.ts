import { encodeFunctionData, erc721Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeSafeBatchTransferFrom } from './decodeSafeBatchTransferFrom.ts'

// EIP-1155's batch transfer, written out as the standard gives it.
const erc1155Abi = [
  {
    type: 'function',
    name: 'safeBatchTransferFrom',
    stateMutability: 'nonpayable',
    inputs: [
      { name: '_from', type: 'address' },
      { name: '_to', type: 'address' },
      { name: '_ids', type: 'uint256[]' },
      { name: '_values', type: 'uint256[]' },
      { name: '_data', type: 'bytes' },
    ],
    outputs: [],
  },
] as const

const owner = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const recipient = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('decodeSafeBatchTransferFrom', () => {
  it('reads the token ids and amounts in order', () => {
    const data = encodeFunctionData({
      abi: erc1155Abi,
      functionName: 'safeBatchTransferFrom',
      args: [owner, recipient, [1n, 2n, 3n], [10n, 1n, 250n], '0x'],
    })
    expect(data.slice(0, 10)).toBe('0x2eb2c2d6')
    expect(decodeSafeBatchTransferFrom(data)).toEqual({
      action: 'batch transfer',
      functionName: 'safeBatchTransferFrom',
      isErc20Ish: false,
      isNFTIsh: true,
      transferFrom: owner,
      transferTo: recipient,
      tokenIds: [1n, 2n, 3n],
      amounts: [10n, 1n, 250n],
      args: [owner, recipient, [1n, 2n, 3n], [10n, 1n, 250n], '0x'],
    })
  })

  it('reads empty lists', () => {
    const data = encodeFunctionData({
      abi: erc1155Abi,
      functionName: 'safeBatchTransferFrom',
      args: [owner, recipient, [], [], '0x'],
    })
    expect(decodeSafeBatchTransferFrom(data)).toMatchObject({ tokenIds: [], amounts: [] })
  })

  it('answers undefined for an ERC-721 transfer', () => {
    const data = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'transferFrom',
      args: [owner, recipient, 1n],
    })
    expect(decodeSafeBatchTransferFrom(data)).toBeUndefined()
  })
})
