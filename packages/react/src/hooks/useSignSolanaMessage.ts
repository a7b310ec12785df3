import { LatchkeyError, signSolanaMessage } from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LatchkeyInstance } from '../store.ts'
import { recoveryHandlers, requestSignature, type SignOptions, signingWallet } from './signing.ts'

export type SignSolanaMessageOptions = SignOptions

export interface SignSolanaMessageParameters {
  /** The bytes to sign (ed25519); UTF-8 text is shown as text on the screen. */
  message: Uint8Array
}

export interface SignSolanaMessageReturnType {
  /** The 64-byte ed25519 signature. */
  signature: Uint8Array
}

export interface UseSignSolanaMessageReturnType {
  signMessage(
    parameters: SignSolanaMessageParameters,
    options?: SignSolanaMessageOptions,
  ): Promise<SignSolanaMessageReturnType>
}

/**
 * Signs a message with the user's embedded Solana wallet after the user
 * confirms it on the "Sign message" screen. An empty message rejects at once
 * with 'Message must be a non-empty string' (spec 03 §5); closing the screen
 * rejects with a `ProviderRpcError` of code 4001.
 *
 * @example
 * const { signMessage } = useSignSolanaMessage()
 * const { signature } = await signMessage({ message: new TextEncoder().encode('Hello') })
 */
export function useSignSolanaMessage(): UseSignSolanaMessageReturnType {
  const instance = useLatchkeyInstance()
  const signMessage = useCallback(
    (parameters: SignSolanaMessageParameters, options?: SignSolanaMessageOptions) =>
      signSolanaMessageWithScreen(instance, parameters, options),
    [instance],
  )
  return { signMessage }
}

/**
 * What `useSignSolanaMessage().signMessage` runs, for callers outside React
 * (the Wallet Standard wallet, solana/LatchkeyStandardWallet.ts): the same
 * screen, the same errors.
 */
export async function signSolanaMessageWithScreen(
  instance: LatchkeyInstance,
  { message }: SignSolanaMessageParameters,
  options: SignSolanaMessageOptions = {},
): Promise<SignSolanaMessageReturnType> {
  if (!(message instanceof Uint8Array) || message.length === 0)
    throw new LatchkeyError('EMPTY_MESSAGE')
  const wallet = signingWallet(instance, 'solana', options.address)
  const signature = await requestSignature(instance, {
    screen: 'sign-message',
    method: 'solana_signMessage',
    data: message,
    address: wallet.address,
    ...recoveryHandlers(instance, wallet),
    uiOptions: options.uiOptions ?? {},
    sign: () => signSolanaMessage(instance.client, wallet, message),
  })
  return { signature }
}
