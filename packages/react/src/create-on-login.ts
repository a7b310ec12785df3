import { chainsToCreateOnLogin, type User } from '@latchkey/core'
import { resolveConfig } from './config.ts'
import type { LatchkeyInstance } from './instance.ts'
import type { CreateWalletsRequest } from './wallet-requests.ts'

export type { CreateWalletsRequest }

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
