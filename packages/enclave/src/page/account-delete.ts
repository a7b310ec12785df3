import type { enclaveRequestSchemas } from '@latchkey/protocol/schemas'
import type { z } from 'zod'
import type { ServerApi } from './api.ts'
import type { FarcasterSignerKeyStore } from './farcaster-signer-store.ts'
import type { DeviceShareStore } from './store.ts'

type DeleteRequest = z.output<(typeof enclaveRequestSchemas)['latchkey:account:delete']>

export interface AccountHandlerDeps {
  appId: string
  api: ServerApi
  store: DeviceShareStore
  /** The Farcaster signer keys this enclave holds (docs/farcaster-signer.md). */
  farcasterSignerKeys?: FarcasterSignerKeyStore
  logger?: Pick<Console, 'warn'>
}

export interface AccountHandlers {
  'latchkey:account:delete'(data: DeleteRequest): Promise<{ success: true }>
}

/**
 * The enclave's account handlers (merged into `createHandlers`).
 *
 * `latchkey:account:delete`: reads the user to learn the entropy ids of their
 * embedded wallets, asks the server to delete the user (a key route: this
 * page's proof goes with it, api.ts), then forgets this device's shares of
 * those wallets and the user's Farcaster signer key. If the server refuses,
 * nothing here is deleted. Once the server has deleted the user a local share
 * is useless (its auth share is gone), so a share that cannot be deleted is
 * only warned about. The signer key is not useless — Farcaster still lists it
 * until the user removes it there — so it is deleted here too, and a failure
 * to do so is warned about the same way.
 */
export function createAccountHandlers(deps: AccountHandlerDeps): AccountHandlers {
  const { appId, api, store } = deps
  return {
    async 'latchkey:account:delete'(data) {
      const user = await api.me(data.access_token)
      const entropyIds = new Set<string>()
      for (const account of user.linked_accounts)
        if (account.type === 'wallet' && account.connector_type === 'embedded')
          entropyIds.add(account.entropy_id)
      await api.deleteAccount(data.access_token)
      for (const entropyId of entropyIds) {
        try {
          await store.delete(appId, entropyId)
        } catch {
          deps.logger?.warn('Latchkey: a device share of the deleted account could not be removed')
        }
      }
      try {
        await deps.farcasterSignerKeys?.delete(appId, user.id)
      } catch {
        deps.logger?.warn(
          'Latchkey: the Farcaster signer key of the deleted account could not be removed',
        )
      }
      return { success: true }
    },
  }
}
