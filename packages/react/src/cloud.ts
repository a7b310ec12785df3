import {
  type CloudRecoveryAction,
  cloudRecoveryChoice,
  createWalletsOnLogin,
  ensureWalletReady,
  type PendingCloudRecovery,
  setWalletRecovery,
  startCloudConsent,
  takeCloudConsentReturn,
} from '@latchkey/core'
import { resolveConfig } from './config.ts'
import type { CloudRecoveryRequest, LatchkeyInstance } from './store.ts'

/*
 * The React side of cloud-drive recovery (spec 02): where a consent starts
 * (a hook, the post-login wallet step, a new device) and how the page picks
 * the flow up again when the provider sends the user back. See
 * docs/wallets.md "Cloud backup".
 */

type ConsentContext = Omit<PendingCloudRecovery, 'stateCode' | 'codeVerifier' | 'createdAt'>

/** Leaves for the provider's consent; `context` comes back with the user. */
export const consentStarter = (instance: LatchkeyInstance, context: ConsentContext) => () =>
  startCloudConsent(instance.client, context)

/** What a consent's action is, in the screen's words. */
const screenAction = (action: CloudRecoveryAction): CloudRecoveryRequest['action'] =>
  action === 'recover' ? 'recover' : 'backup'

/**
 * On page load: when the provider has just sent the user back, finishes what
 * they started — the backup, the recovery, or the post-login wallet creation —
 * on the progress screen, once the session is restored. Returns whether
 * there was a return to finish.
 */
export function resumeCloudConsent(instance: LatchkeyInstance): boolean {
  const { client } = instance
  const back = takeCloudConsentReturn(client)
  if (!back) return false
  const { pending } = back
  const context: ConsentContext = {
    provider: pending.provider,
    action: pending.action,
    entropyId: pending.entropyId,
    chains: pending.chains,
    isNewUser: pending.isNewUser,
  }
  const request: CloudRecoveryRequest = {
    screen: 'cloud-recovery',
    provider: pending.provider,
    action: screenAction(pending.action),
    startConsent: consentStarter(instance, context),
  }
  if (!back.ok) request.failure = back.code
  else {
    const oauth = back.oauth
    if (pending.action === 'recover' && pending.entropyId) {
      const entropyId = pending.entropyId
      request.run = () => ensureWalletReady(client, entropyId, { oauth })
    } else if (pending.action === 'set-recovery') {
      request.run = () =>
        setWalletRecovery(client, {
          recovery: cloudRecoveryChoice(oauth),
          entropyId: pending.entropyId,
        })
    } else {
      request.run = () =>
        createWalletsOnLogin(client, pending.chains ?? ['ethereum'], cloudRecoveryChoice(oauth), {
          oauth,
        })
      request.greeting = { isNewUser: pending.isNewUser ?? false, appName: null }
    }
  }
  void (async () => {
    await client.session.initialize()
    if (client.session.getState().status !== 'authenticated') return
    if (request.greeting) {
      if (!instance.getUiState().appConfig) await instance.loadAppConfig()
      const { hostConfig, appConfig } = instance.getUiState()
      request.greeting.appName = resolveConfig(hostConfig, appConfig).appName
    }
    // Nobody awaits this screen: closing it is not an error anyone needs.
    await instance.openWalletScreen(request).catch(() => {})
  })()
  return true
}
