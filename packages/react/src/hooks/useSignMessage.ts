import { createEmbeddedEthereumProvider, LatchkeyError } from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import {
  recoveryHandlers,
  requestSignature,
  type SignOptions,
  signingWallet,
  utf8ToHex,
} from './signing.ts'

export type SignMessageOptions = SignOptions

export interface SignMessageParameters {
  /** The text to sign (personal_sign of its UTF-8 bytes). */
  message: string
}

export interface SignMessageReturnType {
  /** The 65-byte signature as 0x-hex. */
  signature: string
}

export interface UseSignMessageReturnType {
  signMessage(
    parameters: SignMessageParameters,
    options?: SignMessageOptions,
  ): Promise<SignMessageReturnType>
}

/**
 * Signs a message with the user's embedded Ethereum wallet (EIP-191
 * personal_sign) after the user confirms it on the "Sign message" screen.
 * Closing the screen rejects with a `ProviderRpcError` of code 4001; an empty
 * message rejects at once with 'Message must be a non-empty string'.
 *
 * @example
 * const { signMessage } = useSignMessage()
 * const { signature } = await signMessage({ message: 'Hello' }, { uiOptions: { buttonText: 'Sign' } })
 */
export function useSignMessage(): UseSignMessageReturnType {
  const instance = useLatchkeyInstance()
  const signMessage = useCallback(
    async ({ message }: SignMessageParameters, options: SignMessageOptions = {}) => {
      if (typeof message !== 'string' || message.length === 0)
        throw new LatchkeyError('EMPTY_MESSAGE')
      const wallet = signingWallet(instance, 'ethereum', options.address)
      const provider = createEmbeddedEthereumProvider(instance.client, wallet)
      const signature = await requestSignature(instance, {
        screen: 'sign-message',
        method: 'personal_sign',
        data: message,
        address: wallet.address,
        ...recoveryHandlers(instance, wallet),
        uiOptions: options.uiOptions ?? {},
        sign: async () =>
          String(
            await provider.request({
              method: 'personal_sign',
              params: [utf8ToHex(message), wallet.address],
            }),
          ),
      })
      return { signature }
    },
    [instance],
  )
  return { signMessage }
}
