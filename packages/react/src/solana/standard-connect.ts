import { type EmbeddedWalletAccount, embeddedWallets, type LatchkeyClient } from '@latchkey/core'
import { resolveConfig } from '../config.ts'
import { type LatchkeyInstance, userRejectedRequest } from '../store.ts'

// `standard:connect` of the Wallet Standard wallet (LatchkeyStandardWallet.ts):
// the user's embedded Solana wallets, logging in through the modal and
// creating the wallet on the way when needed.

/** The session once it has left 'loading' (restoring a session on page load). */
function settledSession(client: LatchkeyClient) {
  const now = client.session.getState()
  if (now.status !== 'loading') return Promise.resolve(now)
  return new Promise<ReturnType<typeof client.session.getState>>((resolve) => {
    const unsubscribe = client.session.subscribe(() => {
      const state = client.session.getState()
      if (state.status === 'loading') return
      unsubscribe()
      resolve(state)
    })
  })
}

/**
 * Opens the login modal and resolves once the login has completed — after
 * the modal's post-login steps, so `createOnLogin` wallets exist. Closing the
 * modal first rejects with the EIP-1193 user rejection (4001), as the wallet
 * screens do.
 */
function loginThroughModal(instance: LatchkeyInstance): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false
    const settle = (done: () => void) => {
      if (settled) return
      settled = true
      offLogin()
      offUi()
      done()
    }
    const offLogin = instance.onLoginEvent((event) => {
      if (event.type === 'complete') settle(resolve)
    })
    // The modal closes just before it reports the completed login: wait a microtask.
    const offUi = instance.subscribeUi(() => {
      if (!instance.getUiState().open)
        queueMicrotask(() => settle(() => reject(userRejectedRequest())))
    })
    if (instance.openLogin() === 'already-authenticated') settle(resolve)
  })
}

/**
 * Spec 01 §4 ('connect-or-create'): a user who asks to connect a wallet ends
 * with one. When the login's `createOnLogin` made no Solana wallet, the
 * modal's wallet step creates it, with the app's recovery requirements.
 */
async function createSolanaWallet(instance: LatchkeyInstance): Promise<void> {
  const { hostConfig, appConfig } = instance.getUiState()
  const config = resolveConfig(hostConfig, appConfig)
  await instance.openWalletScreen<void>({
    screen: 'wallet-creation',
    chains: ['solana'],
    isNewUser: false,
    appName: config.appName,
    userOwnedRecovery: config.requireUserOwnedRecoveryOnCreate
      ? config.userOwnedRecoveryOptions
      : null,
  })
}

/**
 * The embedded Solana wallets a Wallet Standard `connect` authorizes.
 * `silent`: only when the user is already logged in with one (else none,
 * and nothing opens). Otherwise a logged-out user logs in through the modal
 * (which runs the app's `createOnLogin`), and a user still without a Solana
 * wallet gets one through the modal's wallet step.
 *
 * @example
 * const wallets = await connectEmbeddedSolana(instance, { silent: false })
 * wallets[0].address // the embedded Solana address
 */
export async function connectEmbeddedSolana(
  instance: LatchkeyInstance,
  { silent }: { silent: boolean },
): Promise<EmbeddedWalletAccount[]> {
  const { client } = instance
  const session = await settledSession(client)
  const solana = () => embeddedWallets(client.session.getState().user, 'solana')
  if (session.status === 'authenticated' && solana().length > 0) return solana()
  if (silent) return []
  if (session.status !== 'authenticated') await loginThroughModal(instance)
  if (solana().length === 0) await createSolanaWallet(instance)
  return solana()
}
