import {
  type Address,
  getTypesForEIP712Domain,
  type Hex,
  type LocalAccount,
  parseSignature,
  type SignableMessage,
  serializeTypedData,
  stringToHex,
  type TypedDataDefinition,
  toHex,
} from 'viem'
import { toAccount } from 'viem/accounts'
import type { LatchkeyClient } from '../client.ts'
import { LatchkeyError } from '../errors.ts'
import type { EmbeddedWalletAccount } from '../user.ts'
import { enclaveRequest } from '../wallets/enclave.ts'
import { ensureWalletReady } from '../wallets/ensureWalletReady.ts'

type EnclaveSigningRequest =
  | { method: 'personal_sign'; params: [Hex, Address] }
  | { method: 'eth_signTypedData_v4'; params: [Address, string] }
  | {
      method: 'eth_signAuthorization'
      params: [{ chainId: number; address: Address; nonce: number }]
    }

/** The bytes `personal_sign` gets for a viem message: text as UTF-8, `raw` as is. */
function messageHex(message: SignableMessage): Hex {
  if (typeof message === 'string') return stringToHex(message)
  return typeof message.raw === 'string' ? message.raw : toHex(message.raw)
}

/**
 * The embedded wallet as a viem `LocalAccount` that owns a smart wallet: each
 * signature is made in the enclave (`latchkey:wallets:rpc`), after the same
 * `ensureWalletReady` as the embedded EIP-1193 provider, so the host page
 * never holds the key. It signs messages (EIP-191), typed data (EIP-712) and
 * EIP-7702 authorizations, whose digest the enclave computes from the fields.
 * It signs no raw hash and no transaction: a smart wallet's owner signs user
 * operations (a message or typed data), never an EOA transaction.
 *
 * @example
 * const owner = toEmbeddedOwner(client, wallet)
 * const { account } = await toSmartWalletAccount({ client: publicClient, owner, type: 'safe' })
 */
export function toEmbeddedOwner(
  client: LatchkeyClient,
  wallet: EmbeddedWalletAccount,
): LocalAccount<'custom'> {
  if (wallet.chainType !== 'ethereum')
    throw new LatchkeyError('UNSUPPORTED_METHOD', 'A smart wallet is owned by an Ethereum wallet')
  const address = wallet.address as Address

  async function sign(request: EnclaveSigningRequest): Promise<Hex> {
    await ensureWalletReady(client, wallet.entropyId)
    const { result } = await enclaveRequest<{ result: Hex }>(client, 'latchkey:wallets:rpc', {
      entropy_id: wallet.entropyId,
      chain_type: 'ethereum',
      wallet_index: wallet.walletIndex,
      request,
    })
    return result
  }

  return toAccount({
    address,
    signMessage: ({ message }) =>
      sign({ method: 'personal_sign', params: [messageHex(message), address] }),
    signTypedData(parameters) {
      const { domain, message, primaryType, types } = parameters as unknown as TypedDataDefinition
      // What viem's signTypedData sends a JSON-RPC wallet (eth_signTypedData_v4):
      // bigints as decimal strings, with the domain's own type.
      const json = serializeTypedData({
        domain,
        message,
        primaryType,
        types: { EIP712Domain: getTypesForEIP712Domain({ domain }), ...types },
      } as unknown as TypedDataDefinition)
      return sign({ method: 'eth_signTypedData_v4', params: [address, json] })
    },
    async signAuthorization(authorization) {
      const contract = authorization.address ?? authorization.contractAddress
      const signature = await sign({
        method: 'eth_signAuthorization',
        params: [{ chainId: authorization.chainId, address: contract, nonce: authorization.nonce }],
      })
      const { r, s, v, yParity } = parseSignature(signature)
      return {
        address: contract,
        chainId: authorization.chainId,
        nonce: authorization.nonce,
        r,
        s,
        v,
        yParity: yParity ?? 0,
      }
    },
    async signTransaction() {
      throw new LatchkeyError(
        'UNSUPPORTED_METHOD',
        "A smart wallet's owner signs user operations, not transactions",
      )
    },
  }) as LocalAccount<'custom'>
}
