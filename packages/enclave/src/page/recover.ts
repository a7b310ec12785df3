import {
  isEnclaveError,
  reconstructAndVerify,
  sameEntropyId,
  wipeSecret,
} from '@latchkey/protocol/keys'
import type { enclaveRequestSchemas, RecoveryMethod } from '@latchkey/protocol/schemas'
import type { z } from 'zod'
import { base64urlToBytes } from '../encoding.ts'
import { derivePasswordKey, openRecoveryShare } from '../recovery.ts'
import type { ServerApi } from './api.ts'
import { type CloudRecoveryDeps, openWithCloudKey } from './cloud-recovery.ts'
import { type FailureNames, naming, PageError } from './errors.ts'
import type { DeviceShareStore } from './store.ts'

/** What `latchkey:wallets:connect` and `recover` answer: whether the wallet is usable here. */
export interface ConnectAnswer {
  entropy_id: string
  status: 'ready' | 'needs-recovery'
  recovery_method: RecoveryMethod
}

type RecoverRequest = z.output<(typeof enclaveRequestSchemas)['latchkey:wallets:recover']>

export interface RecoverDeps {
  appId: string
  api: ServerApi
  store: DeviceShareStore
  now: () => number
  cloud: CloudRecoveryDeps
}

/**
 * Spec 03 §8 'Unable to recover wallet': a recovery failure nobody named (a
 * share that does not open or does not rebuild the wallet, a server 500).
 * A wrong password, a cloud failure, a lost session keep their own codes.
 */
const RECOVERY: FailureNames = {
  INTERNAL_ERROR: 'UNABLE_TO_RECOVER_WALLET',
  unexpected: 'UNABLE_TO_RECOVER_WALLET',
}

/**
 * `latchkey:wallets:recover` (merged into `createHandlers`): opens the
 * recovery share with the wallet's method (the server-held key, the
 * password, or the key in the user's drive), checks that it rebuilds this
 * exact wallet with the auth share, and only then stores it as this device's
 * share.
 */
export function createRecoverHandler(deps: RecoverDeps) {
  const { appId, api, store, now, cloud } = deps
  return (data: RecoverRequest): Promise<ConnectAnswer> => naming(RECOVERY, () => recover(data))

  /**
   * A server call for the wallet's key data. The server answers WALLET_NOT_FOUND
   * both for a wallet that is not this user's and for one whose data is gone:
   * the user's own account tells them apart (spec 02 §8 'Wallet data is missing').
   */
  async function keyData<T>(token: string, entropyId: string, call: () => Promise<T>) {
    try {
      return await call()
    } catch (error) {
      if (!(error instanceof PageError && error.code === 'WALLET_NOT_FOUND')) throw error
      const user = await api.me(token).catch(() => null)
      const listed = user?.linked_accounts.some(
        (a) =>
          a.type === 'wallet' &&
          a.connector_type === 'embedded' &&
          sameEntropyId(a.entropy_id, entropyId),
      )
      throw listed ? new PageError('WALLET_DATA_MISSING') : error
    }
  }

  async function recover(data: RecoverRequest): Promise<ConnectAnswer> {
    const { access_token: token, entropy_id: entropyId } = data
    const material = await keyData(token, entropyId, () => api.recovery(token, entropyId))
    let deviceShare: Uint8Array
    if (material.method === 'latchkey') {
      const key = base64urlToBytes(material.recovery_key)
      try {
        deviceShare = await openRecoveryShare(material.ciphertext, key, data.entropy_id)
      } finally {
        key.fill(0)
      }
    } else if (material.method === 'user-passcode') {
      if (!data.password)
        throw new PageError('INVALID_RECOVERY_PASSWORD', 'A recovery password is required')
      let key: Uint8Array
      try {
        key = await derivePasswordKey(data.password, material.kdf)
      } catch (error) {
        if (isEnclaveError(error, 'INVALID_PASSWORD'))
          throw new PageError('INVALID_RECOVERY_PASSWORD')
        throw error
      }
      try {
        deviceShare = await openRecoveryShare(material.ciphertext, key, data.entropy_id)
      } catch (error) {
        if (isEnclaveError(error, 'DECRYPTION_FAILED'))
          throw new PageError('INVALID_RECOVERY_PASSWORD')
        throw error
      } finally {
        key.fill(0)
      }
    } else {
      // google-drive / icloud: the key comes from the user's drive (needs `oauth`).
      deviceShare = await openWithCloudKey(
        cloud,
        data.access_token,
        data.oauth,
        material,
        data.entropy_id,
      )
    }
    const authShare = base64urlToBytes(
      (await keyData(token, entropyId, () => api.authShare(token, entropyId))).auth_share,
    )
    try {
      // Never store a share that does not rebuild this exact wallet.
      const secret = await reconstructAndVerify(deviceShare, authShare, data.entropy_id)
      wipeSecret(secret)
      await store.put({
        appId,
        entropyId: data.entropy_id,
        deviceShare,
        recoveryMethod: material.method,
        updatedAt: now(),
      })
    } finally {
      authShare.fill(0)
      deviceShare.fill(0)
    }
    return { entropy_id: data.entropy_id, status: 'ready', recovery_method: material.method }
  }
}
