import {
  type CrossAppLoginReturnType,
  crossAppRpc,
  LatchkeyError,
  loginWithCrossApp,
  openCrossAppPopup,
} from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { LoginResult } from '../instance.ts'
import type { CrossAppLoginRequest } from '../modal/cross-app/request.ts'
import { utf8ToHex } from './signing.ts'
import { useCrossAppLogin } from './useCrossAppLogin.ts'

/** A transaction request as `eth_sendTransaction` takes it (hex quantities or numbers). */
export type CrossAppTransaction = Record<string, unknown>

export interface UseCrossAppAccountsReturnType {
  /**
   * Logs in with an account of the provider app `appId`: the login modal's
   * 'Connecting to {app}' and its popup, then the app's post-login steps
   * (terms, wallet creation). Resolves once the modal closes after them;
   * rejects when it closes otherwise (the last failure, or 'User canceled flow').
   */
  loginWithCrossAppAccount(options: { appId: string }): Promise<LoginResult>
  /** Links an account of the provider app to the signed-in user (its own modal screen). */
  linkCrossAppAccount(options: { appId: string }): Promise<CrossAppLoginReturnType>
  /** personal_sign with the provider's embedded wallet `address`, confirmed in the provider's popup. */
  signMessage(message: string, options: { address: string }): Promise<string>
  /** eth_signTypedData_v4 with the provider's embedded wallet, confirmed in its popup. */
  signTypedData(typedData: Record<string, unknown>, options: { address: string }): Promise<string>
  /** eth_sendTransaction from the provider's embedded wallet; resolves with the hash. */
  sendTransaction(transaction: CrossAppTransaction, options: { address: string }): Promise<string>
}

const json = (value: unknown) =>
  JSON.parse(JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? `0x${v.toString(16)}` : v)))

/**
 * Cross-app accounts (spec 03 §4, §7; docs/cross-app.md): log in or link with
 * an account of another app on the same Latchkey server, then ask that
 * app's embedded wallet to sign. The login goes through the login modal's
 * flow, so the app's post-login steps run as after any login. Every call
 * opens the provider app's page in a 440x680 popup, so call them from a
 * click handler.
 *
 * @example
 * const { loginWithCrossAppAccount, signMessage } = useCrossAppAccounts()
 * const { user } = await loginWithCrossAppAccount({ appId: PROVIDER_APP_ID })
 * const account = user.linkedAccounts.find((a) => a.type === 'cross_app')
 * const wallet = account?.embeddedWallets.find((w) => w.chainType === 'ethereum')
 * const signature = await signMessage('Hello', { address: wallet.address })
 */
export function useCrossAppAccounts(): UseCrossAppAccountsReturnType {
  const instance = useLatchkeyInstance()
  const { client } = instance

  const loginWithCrossAppAccount = useCrossAppLogin()
  // A link has no post-login steps (the user is logged in already): its own screen does.
  const linkCrossAppAccount = useCallback(
    async ({ appId }: { appId: string }) => {
      if (client.session.getState().status !== 'authenticated')
        throw new LatchkeyError('NOT_AUTHENTICATED')
      // Opened within the click, before anything awaits (popup blockers).
      const request: CrossAppLoginRequest = {
        screen: 'cross-app',
        providerAppId: appId,
        popup: openCrossAppPopup(),
        run: (popup, onConnecting) =>
          loginWithCrossApp(client, { appId, intent: 'link', popup, onConnecting }),
      }
      return instance.openWalletScreen<CrossAppLoginReturnType>(request)
    },
    [client, instance],
  )
  const signMessage = useCallback(
    (message: string, { address }: { address: string }) => {
      if (typeof message !== 'string' || message.length === 0)
        return Promise.reject(new LatchkeyError('EMPTY_MESSAGE'))
      return crossAppRpc(
        client,
        { method: 'personal_sign', params: [utf8ToHex(message), address] },
        { address },
      )
    },
    [client],
  )
  const signTypedData = useCallback(
    (typedData: Record<string, unknown>, { address }: { address: string }) =>
      crossAppRpc(
        client,
        { method: 'eth_signTypedData_v4', params: [address, json(typedData)] },
        { address },
      ),
    [client],
  )
  const sendTransaction = useCallback(
    (transaction: CrossAppTransaction, { address }: { address: string }) =>
      crossAppRpc(
        client,
        { method: 'eth_sendTransaction', params: [json({ ...transaction, from: address })] },
        { address },
      ),
    [client],
  )
  return {
    loginWithCrossAppAccount,
    linkCrossAppAccount,
    signMessage,
    signTypedData,
    sendTransaction,
  }
}
