import { encodeFunctionData, erc20Abi, erc721Abi } from 'viem'
import { describe, expect, it } from 'vitest'
import { decodeTransferFrom } from './decodeTransferFrom.ts'

const owner = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const recipient = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'

describe('decodeTransferFrom', () => {
  it('reads an ERC-20 amount when the token is ERC-20', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transferFrom',
      args: [owner, recipient, 99n],
    })
    expect(data.slice(0, 10)).toBe('0x23b872dd')
    expect(decodeTransferFrom(data, 'erc20')).toEqual({
      action: 'transfer',
      functionName: 'transferFrom',
      isErc20Ish: true,
      isNFTIsh: false,
      transferFrom: owner,
      transferTo: recipient,
      amount: 99n,
      args: [owner, recipient, 99n],
    })
  })

  it('defaults to an ERC-20 amount without a token kind', () => {
    const data = encodeFunctionData({
      abi: erc20Abi,
      functionName: 'transferFrom',
      args: [owner, recipient, 99n],
    })
    expect(decodeTransferFrom(data)).toMatchObject({ isErc20Ish: true, amount: 99n })
    expect(decodeTransferFrom(data, 'unknown')).toMatchObject({ isErc20Ish: true, amount: 99n })
  })

  it('reads a token id when the token is ERC-721', () => {
    const data = encodeFunctionData({
      abi: erc721Abi,
      functionName: 'transferFrom',
      args: [owner, recipient, 7n],
    })
    const details = decodeTransferFrom(data, 'erc721')
    expect(details).toMatchObject({
      action: 'transfer',
      isErc20Ish: false,
      isNFTIsh: true,
      transferFrom: owner,
      transferTo: recipient,
      tokenId: 7n,
    })
    expect(details?.amount).toBeUndefined()
  })

  it('answers undefined for another function', () => {
    const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [owner, 1n] })
    expect(decodeTransferFrom(data)).toBeUndefined()
  })
})
