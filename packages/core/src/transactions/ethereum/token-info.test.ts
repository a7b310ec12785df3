// @vitest-environment node
import {
  ANVIL_DEV_KEY,
  type AnvilNode,
  deployTestTokens,
  startAnvil,
  type TestTokens,
} from '@latchkey/server/test/chains'
import { createPublicClient, http, type PublicClient } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readTokenInfo } from './token-info.ts'

let anvil: AnvilNode
let client: PublicClient
let tokens: TestTokens
const holder = privateKeyToAccount(ANVIL_DEV_KEY)

beforeAll(async () => {
  anvil = await startAnvil({ chainId: foundry.id })
  client = createPublicClient({ chain: foundry, transport: http(anvil.rpcUrl) })
  tokens = await deployTestTokens(anvil.rpcUrl, { mintTo: holder.address })
})
afterAll(() => anvil?.stop())

describe('readTokenInfo', () => {
  it('reads an ERC-20 name, symbol and decimals', async () => {
    expect(await readTokenInfo(client, tokens.erc20.address)).toEqual({
      address: tokens.erc20.address,
      kind: 'erc20',
      name: 'Test USD',
      symbol: 'TUSD',
      decimals: 6,
    })
  })

  it('defaults decimals to 18 when the token has no decimals()', async () => {
    expect(await readTokenInfo(client, tokens.noDecimals.address)).toEqual({
      address: tokens.noDecimals.address,
      kind: 'erc20',
      symbol: 'BARE',
      decimals: 18,
    })
  })

  it('tells ERC-721 by its ERC-165 interface', async () => {
    expect(await readTokenInfo(client, tokens.erc721.address)).toEqual({
      address: tokens.erc721.address,
      kind: 'erc721',
      name: 'Test NFT',
      symbol: 'TNFT',
    })
  })

  it('tells ERC-1155 by its ERC-165 interface', async () => {
    expect(await readTokenInfo(client, tokens.erc1155.address)).toEqual({
      address: tokens.erc1155.address,
      kind: 'erc1155',
    })
  })

  it("answers 'unknown' for a contract that is no token, and for an account without code", async () => {
    expect(await readTokenInfo(client, tokens.reverter.address)).toEqual({
      address: tokens.reverter.address,
      kind: 'unknown',
    })
    expect(await readTokenInfo(client, holder.address)).toEqual({
      address: holder.address,
      kind: 'unknown',
    })
  })

  it('checksums a lowercase address', async () => {
    const info = await readTokenInfo(client, tokens.erc20.address.toLowerCase() as `0x${string}`)
    expect(info.address).toBe(tokens.erc20.address)
  })
})
