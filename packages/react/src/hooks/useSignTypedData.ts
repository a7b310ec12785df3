import { createEmbeddedEthereumProvider, LatchkeyError } from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { TypedData } from '../wallet-requests.ts'
import { recoveryHandlers, requestSignature, type SignOptions, signingWallet } from './signing.ts'

export type { TypedData }

export type SignTypedDataOptions = SignOptions

export interface SignTypedDataReturnType {
  /** The 65-byte signature as 0x-hex. */
  signature: string
}

export interface UseSignTypedDataReturnType {
  signTypedData(
    typedData: TypedData,
    options?: SignTypedDataOptions,
  ): Promise<SignTypedDataReturnType>
}

/** JSON of typed data; bigint values (as viem users write them) become decimal strings. */
export const typedDataJson = (value: unknown, indent?: number) =>
  JSON.stringify(value, (_, v) => (typeof v === 'bigint' ? v.toString() : v), indent)

/**
 * Signs EIP-712 typed data (eth_signTypedData_v4) with the user's embedded
 * Ethereum wallet after the user confirms it on the "Sign message" screen,
 * which shows the primary type and the message. Closing the screen rejects
 * with a `ProviderRpcError` of code 4001.
 *
 * @example
 * const { signTypedData } = useSignTypedData()
 * const { signature } = await signTypedData({ domain, types, primaryType: 'Mail', message })
 */
export function useSignTypedData(): UseSignTypedDataReturnType {
  const instance = useLatchkeyInstance()
  const signTypedData = useCallback(
    async (typedData: TypedData, options: SignTypedDataOptions = {}) => {
      if (!typedData || typeof typedData !== 'object' || !typedData.primaryType)
        throw new LatchkeyError('EMPTY_MESSAGE')
      const wallet = signingWallet(instance, 'ethereum', options.address)
      const provider = createEmbeddedEthereumProvider(instance.client, wallet)
      const signature = await requestSignature(instance, {
        screen: 'sign-message',
        method: 'eth_signTypedData_v4',
        data: typedData,
        address: wallet.address,
        ...recoveryHandlers(instance, wallet),
        uiOptions: options.uiOptions ?? {},
        sign: async () =>
          String(
            await provider.request({
              method: 'eth_signTypedData_v4',
              params: [wallet.address, typedDataJson(typedData)],
            }),
          ),
      })
      return { signature }
    },
    [instance],
  )
  return { signTypedData }
}
