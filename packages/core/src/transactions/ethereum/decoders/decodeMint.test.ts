import { encodeFunctionData, erc20Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeMint } from './decodeMint.ts'

// The usual mint shapes, as OpenZeppelin presets, ERC721A drops and ERC-1155
// presets declare them.
const mintAbi = [
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'amount', type: 'uint256' },
    ],
    outputs: [],
  },
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'payable',
    inputs: [{ name: 'quantity', type: 'uint256' }],
    outputs: [],
  },
  {
    type: 'function',
    name: 'mint',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'account', type: 'address' },
      { name: 'id', type: 'uint256' },
      { name: 'amount', type: 'uint256' },
      { name: 'data', type: 'bytes' },
    ],
    outputs: [],
  },
] as const

const to = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const mintTo = (value: bigint) =>
  encodeFunctionData({ abi: mintAbi, functionName: 'mint', args: [to, value] })

describe('decodeMint', () => {
  it('reads mint(address,uint256) as an ERC-20 amount by default', () => {
    const data = mintTo(10n ** 18n)
    expect(data.slice(0, 10)).toBe('0x40c10f19')
    expect(decodeMint(data)).toEqual({
      action: 'mint',
      functionName: 'mint',
      isErc20Ish: true,
      isNFTIsh: false,
      transferTo: to,
      amount: 10n ** 18n,
      args: [to, 10n ** 18n],
    })
  })

  it('reads mint(address,uint256) as a token id for an ERC-721', () => {
    const details = decodeMint(mintTo(7n), 'erc721')
    expect(details).toMatchObject({
      isErc20Ish: false,
      isNFTIsh: true,
      transferTo: to,
      tokenId: 7n,
    })
    expect(details?.amount).toBeUndefined()
  })

  it('reads mint(uint256) as a quantity minted to the caller', () => {
    const data = encodeFunctionData({ abi: mintAbi, functionName: 'mint', args: [3n] })
    expect(data.slice(0, 10)).toBe('0xa0712d68')
    expect(decodeMint(data, 'erc721')).toEqual({
      action: 'mint',
      functionName: 'mint',
      isErc20Ish: false,
      isNFTIsh: true,
      amount: 3n,
      args: [3n],
    })
    expect(decodeMint(data)).toMatchObject({ isErc20Ish: true, isNFTIsh: false, amount: 3n })
  })

  it('reads the ERC-1155 mint(address,uint256,uint256,bytes) whatever the hint', () => {
    const data = encodeFunctionData({
      abi: mintAbi,
      functionName: 'mint',
      args: [to, 5n, 100n, '0x'],
    })
    expect(data.slice(0, 10)).toBe('0x731133e9')
    expect(decodeMint(data, 'erc20')).toEqual({
      action: 'mint',
      functionName: 'mint',
      isErc20Ish: false,
      isNFTIsh: true,
      transferTo: to,
      tokenId: 5n,
      amount: 100n,
      args: [to, 5n, 100n, '0x'],
    })
  })

  it('answers undefined for a transfer', () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, 1n] })
    expect(decodeMint(data)).toBeUndefined()
  })
})
