import type { WalletRpcRequest, WalletRpcResponse } from '@latchkey/protocol'
import { bytesToHex, type Hex, keccak256 } from 'viem'
import { ApiError } from '../errors.ts'
import type { Services } from '../http/context.ts'
import {
  type DelegatedActionRecord,
  recordDelegatedAction,
  reserveDailyValue,
  settleDelegatedAction,
} from './audit.ts'
import { checkPolicy, dailyCapFor, getDelegationPolicy, type PolicyRequest } from './policy.ts'
import { findWalletForRpc, loadDelegatedKey, type WalletKey, wipeKey } from './service.ts'
import {
  broadcast,
  chainIdOf,
  completeTransaction,
  quantity,
  signEthereumTransaction,
  signPersonalMessage,
  signSolanaMessage,
  signSolanaTransaction,
  signTypedData,
  solanaProgramIds,
} from './sign.ts'

/*
 * `POST /api/v1/wallets/:wallet_id/rpc` (docs/delegated-actions.md "Server
 * API"): an app's backend signs with a delegated wallet of one of its users.
 * Order: the wallet must be the app's (404), delegated (403), the request
 * within the app's policy (403) and daily cap (429, checked as the value is
 * reserved in the log: audit.ts); only then is the key rebuilt, in memory,
 * for this request, and wiped after. Every attempt on a wallet of the app,
 * signed or refused, leaves an audit row.
 */

type Request = ReturnType<typeof parseRequest>

const ETHEREUM_METHODS = new Set([
  'personal_sign',
  'eth_signTypedData_v4',
  'eth_signTransaction',
  'eth_sendTransaction',
])

function parseRequest(body: WalletRpcRequest) {
  const isEthTx = body.method === 'eth_signTransaction' || body.method === 'eth_sendTransaction'
  const to = isEthTx ? body.params.transaction.to.toLowerCase() : null
  const policy: PolicyRequest = {
    method: body.method,
    caip2: 'caip2' in body && body.caip2 !== undefined ? body.caip2 : null,
    to,
    programs: to !== null ? [to] : [],
    value: isEthTx ? (quantity(body.params.transaction.value) ?? 0n) : null,
    isTransaction: isEthTx || body.method === 'signTransaction',
  }
  return { body, policy }
}

/** A Solana transaction's programs, for the `contracts` rule (read only when it is checked). */
function withSolanaPrograms(request: Request): PolicyRequest {
  const { body, policy } = request
  if (body.method !== 'signTransaction') return policy
  return { ...policy, programs: solanaProgramIds(Buffer.from(body.params.transaction, 'base64')) }
}

export async function walletRpc(
  services: Services,
  appId: string,
  walletId: string,
  body: WalletRpcRequest,
): Promise<WalletRpcResponse> {
  const wallet = await findWalletForRpc(services, appId, walletId)
  if (!wallet) throw new ApiError('WALLET_NOT_FOUND')
  const request: Request = parseRequest(body)
  const attempt = {
    appId,
    userId: wallet.userId,
    address: wallet.address,
    chainType: wallet.chainType,
    method: body.method,
    caip2: request.policy.caip2,
    to: request.policy.to,
    value: request.policy.value,
  }
  // The row reserved under a daily cap; settled, not written again.
  let reserved: string | null = null
  const audit = (
    outcome: 'signed' | 'refused',
    extra: Pick<DelegatedActionRecord, 'result' | 'refusalCode'>,
  ) =>
    reserved !== null
      ? settleDelegatedAction(services.db, reserved, { outcome, ...extra })
      : recordDelegatedAction(services.db, { ...attempt, outcome, ...extra }, services.now())
  let key: WalletKey | null = null
  try {
    if (!wallet.delegation) throw new ApiError('WALLET_NOT_DELEGATED')
    if (ETHEREUM_METHODS.has(body.method) !== (wallet.chainType === 'ethereum'))
      throw new ApiError('INVALID_PAYLOAD', `${body.method} is not a ${wallet.chainType} method.`)
    const policy = await getDelegationPolicy(services.db, appId)
    checkPolicy(policy, policy?.contracts ? withSolanaPrograms(request) : request.policy)
    const cap = policy ? dailyCapFor(policy, request.policy) : null
    if (cap !== null) reserved = await reserveDailyValue(services.db, attempt, cap, services.now())
    key = await loadDelegatedKey(services, wallet)
    const { response, result } = await sign(services, wallet.address as Hex, key, body)
    await audit('signed', { result, refusalCode: null })
    // Settled: a failure after this (the webhook) adds a refused row, never un-signs this one.
    reserved = null
    if (body.method === 'eth_sendTransaction' && 'hash' in result)
      await services.webhooks.emit(appId, 'transaction.sent', {
        user_id: wallet.userId,
        wallet: { address: wallet.address, chain_type: 'ethereum' },
        caip2: body.caip2,
        transaction_hash: result.hash,
      })
    return response
  } catch (error) {
    const code = error instanceof ApiError ? error.code : 'INTERNAL_ERROR'
    await audit('refused', { result: null, refusalCode: code })
    throw error
  } finally {
    if (key) wipeKey(key)
  }
}

type Signed = {
  response: WalletRpcResponse
  result: { hash: string } | { signature: string }
}

async function sign(
  services: Services,
  address: Hex,
  key: WalletKey,
  body: WalletRpcRequest,
): Promise<Signed> {
  if (key.chainType === 'ethereum') {
    const privateKey = key.privateKey
    switch (body.method) {
      case 'personal_sign': {
        const signature = await signPersonalMessage(privateKey, body.params)
        return {
          response: { method: body.method, data: { signature, encoding: 'hex' } },
          result: { signature },
        }
      }
      case 'eth_signTypedData_v4': {
        const signature = await signTypedData(privateKey, body.params.typed_data)
        return {
          response: { method: body.method, data: { signature, encoding: 'hex' } },
          result: { signature },
        }
      }
      case 'eth_signTransaction':
      case 'eth_sendTransaction': {
        const chainId = chainIdOf(body.caip2)
        const rpcUrl = services.config.chainRpcUrls[chainId]
        const tx = await completeTransaction(address, chainId, body.params.transaction, rpcUrl)
        const signed = await signEthereumTransaction(privateKey, tx)
        if (body.method === 'eth_signTransaction')
          return {
            response: {
              method: body.method,
              data: { signed_transaction: signed, encoding: 'rlp' },
            },
            result: { hash: keccak256(signed) },
          }
        if (!rpcUrl)
          throw new ApiError('UNSUPPORTED_CHAIN', `The server has no RPC for chain ${chainId}.`)
        const hash = await broadcast(rpcUrl, signed)
        return {
          response: { method: body.method, data: { hash, caip2: body.caip2 } },
          result: { hash },
        }
      }
    }
  } else {
    switch (body.method) {
      case 'signMessage': {
        const signature = Buffer.from(
          signSolanaMessage(key.seed, Buffer.from(body.params.message, 'base64')),
        ).toString('base64')
        return {
          response: { method: body.method, data: { signature, encoding: 'base64' } },
          result: { signature: bytesToHex(Buffer.from(signature, 'base64')) },
        }
      }
      case 'signTransaction': {
        const signed = signSolanaTransaction(
          Buffer.from(body.params.transaction, 'base64'),
          key.seed,
          key.publicKey,
        )
        return {
          response: {
            method: body.method,
            data: {
              signed_transaction: Buffer.from(signed).toString('base64'),
              encoding: 'base64',
            },
          },
          result: { signature: Buffer.from(signed.subarray(1, 65)).toString('hex') },
        }
      }
    }
  }
  throw new ApiError('INVALID_PAYLOAD', `${body.method} is not a ${key.chainType} method.`)
}
