import { encodeFunctionData, erc20Abi, erc721Abi, maxUint256, parseEther } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeEthereumTransaction, isUnlimitedApproval } from './decode.ts'

const token = '0xA0b86991c6218b36c1d19D4a2e9Eb0cE3606eB48'
const owner = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const other = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

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

const generic = { action: 'transaction', isErc20Ish: false, isNFTIsh: false, args: [] }

describe('decodeEthereumTransaction', () => {
  it('reads a plain send, with no data or with 0x, as a transaction with no function', () => {
    const value = parseEther('0.5')
    expect(decodeEthereumTransaction({ to: other, value })).toEqual(generic)
    expect(decodeEthereumTransaction({ to: other, data: '0x', value })).toEqual(generic)
    expect(decodeEthereumTransaction({ to: other, value }).functionName).toBeUndefined()
  })

  it('reads an unknown selector as a transaction with no function and no args', () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
    expect(decodeEthereumTransaction({ to: token, data })).toEqual(generic)
  })

  it('reads data shorter than a selector, or a known selector with broken args, as a transaction', () => {
    expect(decodeEthereumTransaction({ to: token, data: '0x095e' })).toEqual(generic)
    expect(decodeEthereumTransaction({ to: token, data: '0x095ea7b3' })).toEqual(generic)
  })

  it('does not decode contract creation code', () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [other, 1n] })
    expect(decodeEthereumTransaction({ to: null, data })).toEqual(generic)
    expect(decodeEthereumTransaction({ data })).toEqual(generic)
  })

  it('reads an unlimited ERC-20 approval without a token kind', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'approve',
      args: [other, maxUint256],
    })
    const details = decodeEthereumTransaction({ to: token, data })
    expect(details).toMatchObject({
      action: 'approve',
      functionName: 'approve',
      isErc20Ish: true,
      spender: other,
      amount: maxUint256,
    })
    expect(isUnlimitedApproval(details.amount ?? 0n)).toBe(true)
  })

  it('lets tokenKind turn approve and transferFrom into NFT calls', () => {
    const approve = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'approve',
      args: [other, 9n],
    })
    expect(
      decodeEthereumTransaction({ to: token, data: approve }, { tokenKind: 'erc721' }),
    ).toMatchObject({
      action: 'approve',
      isNFTIsh: true,
      spender: other,
      tokenId: 9n,
    })
    const transferFrom = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'transferFrom',
      args: [owner, other, 9n],
    })
    expect(
      decodeEthereumTransaction({ to: token, data: transferFrom }, { tokenKind: 'erc721' }),
    ).toMatchObject({
      action: 'transfer',
      functionName: 'transferFrom',
      isNFTIsh: true,
      tokenId: 9n,
    })
    expect(decodeEthereumTransaction({ to: token, data: transferFrom })).toMatchObject({
      isErc20Ish: true,
      amount: 9n,
    })
  })

  it('reads an ERC-20 transfer', () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [other, 5n] })
    expect(decodeEthereumTransaction({ to: token, data, value: 0n })).toMatchObject({
      action: 'transfer',
      functionName: 'transfer',
      transferTo: other,
      amount: 5n,
    })
  })

  it('reads setApprovalForAll as an NFT approval of an operator', () => {
    const data = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'setApprovalForAll',
      args: [other, true],
    })
    expect(decodeEthereumTransaction({ to: token, data })).toMatchObject({
      action: 'approve',
      functionName: 'setApprovalForAll',
      isNFTIsh: true,
      operator: other,
      approved: true,
    })
  })

  it('reads both ERC-721 safeTransferFrom overloads', () => {
    const three = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'safeTransferFrom',
      args: [owner, other, 1n],
    })
    const four = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'safeTransferFrom',
      args: [owner, other, 2n, '0x01'],
    })
    expect(decodeEthereumTransaction({ to: token, data: three })).toMatchObject({
      action: 'transfer',
      tokenId: 1n,
      isNFTIsh: true,
    })
    expect(decodeEthereumTransaction({ to: token, data: four })).toMatchObject({
      action: 'transfer',
      tokenId: 2n,
      isNFTIsh: true,
    })
  })

  it('reads an ERC-1155 batch transfer', () => {
    const data = encodeFunctionData({
      abi: erc1155Abi,
      functionName: 'safeBatchTransferFrom',
      args: [owner, other, [4n, 5n], [1n, 2n], '0x'],
    })
    expect(decodeEthereumTransaction({ to: token, data }, { tokenKind: 'erc1155' })).toMatchObject({
      action: 'batch transfer',
      functionName: 'safeBatchTransferFrom',
      transferFrom: owner,
      transferTo: other,
      tokenIds: [4n, 5n],
      amounts: [1n, 2n],
    })
  })

  it('reads a mint', () => {
    // mint(uint256) with selector 0xa0712d68 and quantity 2.
    const data = `0xa0712d68${'2'.padStart(64, '0')}` as const
    expect(decodeEthereumTransaction({ to: token, data }, { tokenKind: 'erc721' })).toEqual({
      action: 'mint',
      functionName: 'mint',
      isErc20Ish: false,
      isNFTIsh: true,
      amount: 2n,
      args: [2n],
    })
  })
})
