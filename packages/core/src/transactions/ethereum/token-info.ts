import { type Address, getAddress, type Hex, parseAbi } from 'viem'
import { readContract } from 'viem/actions'
import type { ChainClient } from './chain-client.ts'
import type { TokenInfo } from './types.ts'

export type ReadTokenInfoParameters = Address
export type ReadTokenInfoReturnType = TokenInfo

/** ERC-165 interface ids (EIP-721, EIP-1155), and the id ERC-165 says no contract supports. */
const ERC721_INTERFACE: Hex = '0x80ac58cd'
const ERC1155_INTERFACE: Hex = '0xd9b67a26'
const INVALID_INTERFACE: Hex = '0xffffffff'

/** Spec 03 §9: an ERC-20 that does not say its decimals has 18. */
const DEFAULT_DECIMALS = 18

const abi = parseAbi([
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
  'function decimals() view returns (uint8)',
  'function symbol() view returns (string)',
  'function name() view returns (string)',
])

/**
 * Reads which token standard a contract speaks and how to show it: ERC-165
 * `supportsInterface` for ERC-721 and ERC-1155, else `decimals()` /
 * `symbol()` for an ERC-20 (decimals default to 18), else 'unknown'. Every
 * read runs at once and any of them may revert (or hit an account without
 * code) without failing the others: multicall is not on every node (Anvil).
 *
 * @example
 * const info = await readTokenInfo(publicClient, '0xA0b8…eB48')
 * // { address: '0xA0b8…eB48', kind: 'erc20', name: 'USD Coin', symbol: 'USDC', decimals: 6 }
 */
export async function readTokenInfo(
  client: ChainClient,
  address: ReadTokenInfoParameters,
): Promise<ReadTokenInfoReturnType> {
  const tolerant = <T>(read: Promise<T>) => read.catch(() => undefined)
  const supports = (interfaceId: Hex) =>
    tolerant(
      readContract(client, {
        address,
        abi,
        functionName: 'supportsInterface',
        args: [interfaceId],
      }),
    )
  const [is721, is1155, isInvalid, decimals, symbol, name] = await Promise.all([
    supports(ERC721_INTERFACE),
    supports(ERC1155_INTERFACE),
    supports(INVALID_INTERFACE),
    tolerant(readContract(client, { address, abi, functionName: 'decimals' })),
    tolerant(readContract(client, { address, abi, functionName: 'symbol' })),
    tolerant(readContract(client, { address, abi, functionName: 'name' })),
  ])
  const info: TokenInfo = { address: getAddress(address), kind: 'unknown' }
  if (name) info.name = name
  if (symbol) info.symbol = symbol
  // ERC-165: a contract answering true for 0xffffffff answers true to anything.
  const erc165 = isInvalid !== true
  if (erc165 && is721) return { ...info, kind: 'erc721' }
  if (erc165 && is1155) return { ...info, kind: 'erc1155' }
  if (decimals !== undefined || symbol !== undefined)
    return { ...info, kind: 'erc20', decimals: decimals ?? DEFAULT_DECIMALS }
  return info
}
