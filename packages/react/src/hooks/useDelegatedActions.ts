import {
  delegateWallet as delegateInEnclave,
  LatchkeyError,
  revokeWallets as revokeAtServer,
  type User,
  walletToDelegate,
} from '@latchkey/core'
import { useCallback } from 'react'
import { useLatchkeyInstance } from '../context.ts'
import type { DelegatedActionsRequest } from '../modal/delegated-actions/request.ts'
import { ensureRecovered, isUserRejection } from './signing.ts'

export interface DelegateWalletOptions {
  /** The user's embedded wallet to delegate. */
  address: string
  /** Spec 03 §5: Ethereum or Solana. */
  chainType: 'ethereum' | 'solana'
  /** Show the consent screen ('Enable offline access'). Default true. */
  showDelegationUIs?: boolean
}

export interface RevokeWalletsOptions {
  /** Show the revoke screen ('Revoke offline access to wallet'). Default true. */
  showDelegationUIs?: boolean
}

export interface UseDelegatedActionsReturnType {
  /**
   * Asks the user to let the app use `address` while they are offline
   * ('Enable offline access': 'Not now' / 'Accept'), then hands the server
   * the wallet's share sealed in the enclave. Resolves with the updated user
   * (the wallet `delegated: true`) once the modal closes. Rejects with
   * DELEGATION_ADDRESS_NOT_OWNED before any screen when the address is not
   * one of the user's embedded wallets, DELEGATION_DECLINED ('User declined
   * delegating actions.') on 'Not now' or close, or the failure after
   * 'Something went wrong. Please try again.'.
   */
  delegateWallet(options: DelegateWalletOptions): Promise<User>
  /**
   * Asks the user to revoke the app's offline access ('Revoke offline access
   * to wallet': 'Deny' / 'Confirm'); the server deletes every delegated share
   * of the user at once. Resolves with the updated user; rejects with
   * DELEGATION_REVOKE_DECLINED ('User declined revoking access to their
   * delegated wallet.') on 'Deny' or close.
   */
  revokeWallets(options?: RevokeWalletsOptions): Promise<User>
}

/**
 * Delegated actions (spec 03 §2; docs/delegated-actions.md): with the user's
 * consent, the app's backend may sign with the user's embedded wallet under
 * the app secret while the user is offline; the user can revoke it. The
 * screens close 2.5 s after 'Success!' or the error. With
 * `showDelegationUIs: false` the operation runs without a screen (MFA still
 * asks when the user has it).
 *
 * @example
 * const { delegateWallet, revokeWallets } = useDelegatedActions()
 * const wallet = useWallets().wallets[0]
 * await delegateWallet({ address: wallet.address, chainType: 'ethereum' })
 * await revokeWallets()
 */
export function useDelegatedActions(): UseDelegatedActionsReturnType {
  const instance = useLatchkeyInstance()
  const { client } = instance

  /**
   * Opens the screen. Closing it (or the decline button) before Accept /
   * Confirm is the spec's decline error; closing it while the operation runs
   * settles with the operation's own outcome, which goes on regardless.
   */
  const open = useCallback(
    async (
      build: (track: (operation: Promise<User>) => Promise<User>) => DelegatedActionsRequest,
      declined: LatchkeyError,
    ) => {
      let running: Promise<User> | undefined
      const request = build((operation) => {
        running = operation
        return operation
      })
      try {
        return await instance.openWalletScreen<User>(request)
      } catch (error) {
        if (!isUserRejection(error)) throw error
        if (running) return running
        throw declined
      }
    },
    [instance],
  )

  const delegateWallet = useCallback(
    async ({ address, chainType, showDelegationUIs = true }: DelegateWalletOptions) => {
      // Spec 03 §5: an address that is not the user's is refused before any screen.
      const wallet = walletToDelegate(client.session.getState().user, { address, chainType })
      const parameters = { address: wallet.address, chainType: wallet.chainType }
      if (!showDelegationUIs) return delegateInEnclave(client, parameters)
      // A wallet not yet on this device is recovered first (the connect-wallet screen, if it must ask).
      await ensureRecovered(instance, wallet.entropyId)
      return open(
        (track) => ({
          screen: 'delegate-wallet',
          ...parameters,
          appName: instance.getUiState().appConfig?.name ?? null,
          onDelegate: () => track(delegateInEnclave(client, parameters)),
        }),
        new LatchkeyError('DELEGATION_DECLINED'),
      )
    },
    [client, instance, open],
  )

  const revokeWallets = useCallback(
    async ({ showDelegationUIs = true }: RevokeWalletsOptions = {}) => {
      if (client.session.getState().status !== 'authenticated')
        throw new LatchkeyError('NOT_AUTHENTICATED')
      if (!showDelegationUIs) return revokeAtServer(client)
      return open(
        (track) => ({
          screen: 'revoke-wallets',
          appName: instance.getUiState().appConfig?.name ?? null,
          onRevoke: () => track(revokeAtServer(client)),
        }),
        new LatchkeyError('DELEGATION_REVOKE_DECLINED'),
      )
    },
    [client, instance, open],
  )

  return { delegateWallet, revokeWallets }
}
