import {
  generateHdSecret,
  importEthereumKey,
  importSolanaKey,
  isEnclaveError,
  sameEntropyId,
  splitSecret,
  type WalletSecret,
  wipeSecret,
} from '@latchkey/protocol/keys'
import type {
  ChainType,
  EnclaveEvent,
  enclaveRequestSchemas,
  RecoveryChoice,
  RecoveryMaterial,
  RecoveryOAuthAuthenticateResponse,
  UserWire,
} from '@latchkey/protocol/schemas'
import type { z } from 'zod'
import { type CloudKeyStore, createCloudKeyStore } from '../cloud/index.ts'
import { base64urlToBytes, bytesToBase64url } from '../encoding.ts'
import {
  derivePasswordKey,
  generateRecoveryKey,
  newPasswordKdf,
  sealRecoveryShare,
} from '../recovery.ts'
import { createAccountHandlers } from './account-delete.ts'
import type { ServerApi } from './api.ts'
import { type CloudRecoveryDeps, sealWithCloudKey } from './cloud-recovery.ts'
import { createDelegateHandlers } from './delegate.ts'
import { type FailureNames, naming, PageError } from './errors.ts'
import { createFarcasterSignerHandlers } from './farcaster-signer.ts'
import type { FarcasterSignerKeyStore } from './farcaster-signer-store.ts'
import { createMfaHandlers } from './mfa.ts'
import { type ConnectAnswer, createRecoverHandler } from './recover.ts'
import { personalSign, signAuthorization, signSolanaMessage, signTypedDataV4 } from './sign.ts'
import { signEthereumTransaction, signSolanaTransaction } from './sign-transaction.ts'
import type { DeviceShareStore } from './store.ts'
import { rebuildWalletKeys, WalletKeys } from './wallet-keys.ts'
import { createWarmKeys, dropWarmKeysAround, type WarmKeys } from './warm-keys.ts'

type Payload<E extends EnclaveEvent> = z.output<(typeof enclaveRequestSchemas)[E]>

/** Spec 02 §8 'User wallet creation failed': a creation failure nobody named. */
const CREATION: FailureNames = {
  INTERNAL_ERROR: 'USER_WALLET_CREATION_FAILED',
  unexpected: 'USER_WALLET_CREATION_FAILED',
}

export interface HandlerDeps {
  appId: string
  api: ServerApi
  store: DeviceShareStore
  now?: () => number
  logger?: Pick<Console, 'warn'>
  /** The Google Drive / iCloud client for an exchanged consent (default: the real ones, global fetch). */
  cloudKeyStore?: (access: RecoveryOAuthAuthenticateResponse) => CloudKeyStore
  /** Rebuilt keys kept within the session's MFA window (default: watching `document`'s visibility). */
  warmKeys?: WarmKeys
  /** Farcaster signer keys (default: this origin's IndexedDB; farcaster-signer.ts). */
  farcasterSignerKeys?: FarcasterSignerKeyStore
}

/** Events after which no warm key may remain (docs/mfa.md "Warm keys"): dropped before they run. */
const DROPS_WARM_KEYS: ReadonlySet<EnclaveEvent> = new Set<EnclaveEvent>([
  'latchkey:clear',
  'latchkey:mfa:clear',
  'latchkey:mfa:unenroll',
  'latchkey:account:delete',
])

export type Handlers = { [E in EnclaveEvent]: (data: Payload<E>) => Promise<unknown> }

export type { ConnectAnswer } from './recover.ts'

/**
 * Seals the device share as the recovery share under the chosen method. A
 * cloud method first stores a new key in the user's drive (cloud-recovery.ts).
 */
async function sealForRecovery(
  cloud: CloudRecoveryDeps,
  token: string,
  deviceShare: Uint8Array,
  choice: RecoveryChoice,
  entropyId: string,
): Promise<RecoveryMaterial> {
  if (choice.method === 'google-drive' || choice.method === 'icloud') {
    return sealWithCloudKey(cloud, token, choice, deviceShare, entropyId)
  }
  if (choice.method === 'latchkey') {
    const key = generateRecoveryKey()
    try {
      const ciphertext = await sealRecoveryShare(deviceShare, key, entropyId)
      return { method: 'latchkey', ciphertext, recovery_key: bytesToBase64url(key) }
    } finally {
      key.fill(0)
    }
  }
  const kdf = newPasswordKdf()
  const key = await derivePasswordKey(choice.password, kdf)
  try {
    const ciphertext = await sealRecoveryShare(deviceShare, key, entropyId)
    return { method: 'user-passcode', ciphertext, kdf }
  } finally {
    key.fill(0)
  }
}

/**
 * The enclave's request handlers (ARCHITECTURE "Embedded wallet keys"). The
 * secret exists in memory only inside one handler call and is wiped in a
 * `finally` — unless the server said this session's MFA window is open
 * (`warm_until`): then it stays a warm key until the window ends
 * (warm-keys.ts, docs/mfa.md "Warm keys"). The device share is written only
 * after the server confirmed it stored the auth and recovery shares. Cloud methods (google-drive, icloud)
 * exchange the host's consent result at the server and keep the provider
 * token here (cloud-recovery.ts); their failures answer CLOUD_BACKUP_FAILED /
 * CLOUD_RECOVERY_FAILED.
 */
export function createHandlers(deps: HandlerDeps): Handlers {
  const { appId, api, store } = deps
  const now = deps.now ?? Date.now
  const warm = deps.warmKeys ?? createWarmKeys({ document: globalThis.document ?? null })
  const cloud: CloudRecoveryDeps = {
    appId,
    api,
    keyStore: deps.cloudKeyStore ?? ((access) => createCloudKeyStore(access)),
  }

  async function deviceShareOf(entropyId: string) {
    const record = await store.get(appId, entropyId)
    if (!record)
      throw new PageError('WALLET_NOT_FOUND', 'This wallet must be recovered on this device first')
    return record
  }

  /**
   * Runs `use` with the wallet's keys: this session's warm key when there is
   * one, else rebuilt from the stored device share and the server's auth
   * share — kept warm until `warm_until` when the server gives one, wiped
   * otherwise. A warm key skips the store: its share was here when it was
   * kept, and whatever removes a share on this device (logout, account
   * deletion, in any tab) ends the warm keys first (warm-keys.ts).
   */
  async function withSecret<T>(
    token: string,
    entropyId: string,
    use: (keys: WalletKeys) => Promise<T>,
  ): Promise<T> {
    const kept = warm.get(token, entropyId)
    if (kept) return use(kept)
    const record = await deviceShareOf(entropyId)
    let keys: WalletKeys | undefined
    let owned = true
    try {
      const answer = await api.authShare(token, entropyId)
      const authShare = base64urlToBytes(answer.auth_share)
      try {
        keys = await rebuildWalletKeys(record.deviceShare, authShare, entropyId)
      } finally {
        authShare.fill(0)
      }
      owned = !warm.keep(token, entropyId, keys, answer.warm_until)
      return await use(keys)
    } finally {
      if (owned) keys?.wipe()
      record.deviceShare.fill(0)
    }
  }

  /** Stores the shares of a new secret on the server, then the device share here. */
  async function storeNewSecret(
    token: string,
    keys: WalletKeys,
    secret: WalletSecret,
    entropyType: 'hd' | 'private-key',
    chains: { chain_type: ChainType; wallet_index: number | null }[],
    choice: RecoveryChoice,
  ): Promise<{ user: UserWire }> {
    const entropyId = keys.entropyId()
    const wallets = chains.map((w) => ({ ...w, address: keys.address(w.chain_type, 0) }))
    const { deviceShare, authShare } = await splitSecret(secret)
    try {
      const recovery = await sealForRecovery(cloud, token, deviceShare, choice, entropyId)
      // Atomic creation: nothing is kept here unless the server stored both shares.
      const user = await api.create(token, {
        entropy_id: entropyId,
        entropy_type: entropyType,
        auth_share: bytesToBase64url(authShare),
        recovery,
        wallets,
      })
      try {
        await store.put({
          appId,
          entropyId,
          deviceShare,
          recoveryMethod: choice.method,
          updatedAt: now(),
        })
      } catch {
        // The server holds the recovery share: the wallet exists and is recoverable here.
        deps.logger?.warn(
          'Latchkey: the device share could not be stored; recovery will rebuild it',
        )
      }
      return { user }
    } finally {
      deviceShare.fill(0)
      authShare.fill(0)
    }
  }

  const handlers: Handlers = {
    ...createAccountHandlers(deps),
    ...createMfaHandlers({ api }),
    ...createFarcasterSignerHandlers(deps),
    ...createDelegateHandlers(deps),
    async 'latchkey:wallets:create'(data) {
      const chains = (['ethereum', 'solana'] as const)
        .filter((c) => data.chain_types.includes(c))
        .map((chain) => ({ chain_type: chain, wallet_index: 0 }))
      const secret = generateHdSecret()
      let keys: WalletKeys | undefined
      try {
        keys = await WalletKeys.of(secret)
        const own = keys
        return await naming(CREATION, () =>
          storeNewSecret(data.access_token, own, secret, 'hd', chains, data.recovery),
        )
      } finally {
        keys?.wipe()
        wipeSecret(secret)
      }
    },

    async 'latchkey:wallets:import'(data) {
      let secret: WalletSecret
      try {
        secret =
          data.chain_type === 'ethereum'
            ? importEthereumKey(data.private_key)
            : importSolanaKey(data.private_key)
      } catch (error) {
        if (isEnclaveError(error)) throw new PageError('INVALID_PAYLOAD', 'Not a valid private key')
        throw error
      }
      const keys = await WalletKeys.of(secret)
      try {
        const chains = [{ chain_type: data.chain_type, wallet_index: null }]
        return await storeNewSecret(data.access_token, keys, secret, 'private-key', chains, {
          method: 'latchkey',
        })
      } finally {
        keys.wipe()
      }
    },

    async 'latchkey:wallets:add'(data) {
      return withSecret(data.access_token, data.entropy_id, async (keys) => {
        const address = keys.address(data.chain_type, data.wallet_index)
        const user = await api.add(data.access_token, {
          entropy_id: data.entropy_id,
          chain_type: data.chain_type,
          address,
          wallet_index: data.wallet_index,
        })
        return { user }
      })
    },

    async 'latchkey:wallets:connect'(data): Promise<ConnectAnswer> {
      const record = await store.get(appId, data.entropy_id)
      if (record) {
        record.deviceShare.fill(0)
        return {
          entropy_id: data.entropy_id,
          status: 'ready',
          recovery_method: record.recoveryMethod,
        }
      }
      // No share on this device: ask which recovery the wallet uses (no key material moves).
      const user = await api.me(data.access_token)
      const wallet = user.linked_accounts.find(
        (a) =>
          a.type === 'wallet' &&
          a.connector_type === 'embedded' &&
          sameEntropyId(a.entropy_id, data.entropy_id),
      )
      if (wallet?.type !== 'wallet' || wallet.connector_type !== 'embedded')
        throw new PageError('WALLET_NOT_FOUND')
      return {
        entropy_id: data.entropy_id,
        status: 'needs-recovery',
        recovery_method: wallet.recovery_method,
      }
    },

    'latchkey:wallets:recover': createRecoverHandler({ appId, api, store, now, cloud }),

    async 'latchkey:wallets:set-recovery'(data) {
      const own = await deviceShareOf(data.entropy_id)
      let user: UserWire
      try {
        // The wallet's keys prove this device share and the server's auth share rebuild it.
        user = await withSecret(data.access_token, data.entropy_id, async () => {
          const recovery = await sealForRecovery(
            cloud,
            data.access_token,
            own.deviceShare,
            data.recovery,
            data.entropy_id,
          )
          return api.setRecovery(data.access_token, { entropy_id: data.entropy_id, recovery })
        })
      } finally {
        own.deviceShare.fill(0)
      }
      const record = await store.get(appId, data.entropy_id)
      if (record) {
        await store.put({ ...record, recoveryMethod: data.recovery.method, updatedAt: now() })
        record.deviceShare.fill(0)
      }
      return { user }
    },

    async 'latchkey:wallets:rpc'(data) {
      const index = data.wallet_index ?? 0
      const { request } = data
      const solanaMethod = request.method === 'signMessage' || request.method === 'signTransaction'
      if ((data.chain_type === 'solana') !== solanaMethod) throw new PageError('UNSUPPORTED_METHOD')
      return withSecret(data.access_token, data.entropy_id, async (keys) => {
        if (request.method === 'signMessage' || request.method === 'signTransaction') {
          const account = keys.solana(index)
          try {
            if (request.method === 'signMessage') {
              const message = base64urlToBytes(request.params.message)
              return { result: bytesToBase64url(signSolanaMessage(message, account.seed)) }
            }
            const wire = base64urlToBytes(request.params.transaction)
            const signed = signSolanaTransaction(wire, account.seed, account.publicKey)
            return { result: bytesToBase64url(signed) }
          } finally {
            account.seed.fill(0)
          }
        }
        const account = keys.ethereum(index)
        try {
          // The signer is the wallet itself (entropy_id, wallet_index): no address in the params.
          if (request.method === 'eth_signAuthorization')
            return { result: signAuthorization(request.params[0], account.privateKey) }
          const address =
            request.method === 'personal_sign'
              ? request.params[1]
              : request.method === 'eth_signTransaction'
                ? request.params[0].from
                : request.params[0]
          if (!sameEntropyId(address, account.address))
            throw new PageError('INVALID_PAYLOAD', 'The address is not this wallet')
          const result =
            request.method === 'personal_sign'
              ? personalSign(request.params[0], account.privateKey)
              : request.method === 'eth_signTransaction'
                ? signEthereumTransaction(request.params[0], account.privateKey)
                : signTypedDataV4(request.params[1], account.privateKey)
          return { result }
        } finally {
          account.privateKey.fill(0)
        }
      })
    },

    async 'latchkey:clear'() {
      await store.clearApp(appId)
      return {}
    },
  }
  return dropWarmKeysAround(handlers, warm, DROPS_WARM_KEYS)
}
