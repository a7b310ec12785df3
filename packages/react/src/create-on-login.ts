import { chainsToCreateOnLogin, type User } from '@latchkey/core'
import { resolveConfig, type UserOwnedRecoveryMethod } from './config.ts'
import type { LatchkeyInstance } from './store.ts'

/**
 * The post-login wallet step (`embeddedWallets.createOnLogin`) for a login
 * the modal did not make (a guest's): 'Setting up your wallet', then the
 * greeting, and the modal closes 2.5 s later, as after a modal login.
 */
export interface CreateWalletsRequest {
  screen: 'wallet-creation'
  chains: Array<'ethereum' | 'solana'>
  isNewUser: boolean
  appName: string | null
  /** The app requires user-owned recovery: the methods to offer first (null: automatic recovery). */
  userOwnedRecovery: UserOwnedRecoveryMethod[] | null
}

/**
 * Creates the wallets `embeddedWallets.createOnLogin` asks for after a login
 * made without the modal. Spec 02: wallet creation is for authenticated
 * users, and a guest is one, so `all-users` and `users-without-wallets`
 * include guests. When the user lacks a wallet the configuration wants, the
 * modal opens on the wallet step; resolves once the wallets exist (at once
 * when there is nothing to create), rejects when the user closes the modal
 * first or the creation failed (which logs the user out, spec 02).
 *
 * @example
 * const login = await loginAsGuest(instance.client)
 * await createWalletsAfterLogin(instance, login)
 */
export async function createWalletsAfterLogin(
  instance: LatchkeyInstance,
  { user, isNewUser }: { user: User; isNewUser: boolean },
): Promise<void> {
  const appConfig = await instance.client
    .getAppConfig()
    .catch(() => instance.getUiState().appConfig)
  const config = resolveConfig(instance.getUiState().hostConfig, appConfig)
  const chains = chainsToCreateOnLogin(user, config.createOnLogin)
  if (chains.length === 0) return
  await instance.openWalletScreen<void>({
    screen: 'wallet-creation',
    chains,
    isNewUser,
    appName: config.appName,
    userOwnedRecovery: config.requireUserOwnedRecoveryOnCreate
      ? config.userOwnedRecoveryOptions
      : null,
  })
}
