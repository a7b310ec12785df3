import type { Address, Hex, LocalAccount } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import {
  type CredentialStore,
  PROVIDER_CREDENTIALS_PURPOSE,
  providerCredentialAad,
} from '../apps/credentials.ts'

/*
 * The app's paymaster signer (docs/smart-wallets.md "Sponsored gas"): a
 * secp256k1 key per app, the `verifyingSigner` of the VerifyingPaymaster the
 * operator deploys. It lives in `app_provider_credentials` like every other
 * app credential: the private key sealed (AES-256-GCM, purpose
 * provider-credentials, associated data binding app, this provider and the
 * column), the address in the clear (`client_id`) so the CLI can print it
 * without the master key. It is not one of the `apps credentials` providers:
 * nobody sets it from outside, the server creates it once.
 */

/** The row's provider name. */
export const PAYMASTER_SIGNER_PROVIDER = 'smart-wallet-paymaster'

const sealed = (appId: string) =>
  providerCredentialAad(appId, PAYMASTER_SIGNER_PROVIDER, 'client_secret')

/**
 * The app's paymaster signer address, creating the key when the app has
 * none (two calls at once keep one key: the second insert does nothing).
 *
 * @example
 * const { address, created } = await ensurePaymasterSigner({ db, secrets }, appId)
 * // deploy VerifyingPaymaster(entryPoint, address), then set its address in settings.smart_wallets
 */
export async function ensurePaymasterSigner(
  store: CredentialStore,
  appId: string,
): Promise<{ address: Address; created: boolean }> {
  const existing = await paymasterSignerAddress(store, appId)
  if (existing) return { address: existing, created: false }
  const app = await store.db
    .selectFrom('apps')
    .select('id')
    .where('id', '=', appId)
    .executeTakeFirst()
  if (!app) throw new Error(`No app with id ${appId}`)
  const key = generatePrivateKey()
  const { address } = privateKeyToAccount(key)
  const now = (store.now ?? Date.now)()
  await store.db
    .insertInto('app_provider_credentials')
    .values({
      app_id: appId,
      provider: PAYMASTER_SIGNER_PROVIDER,
      client_id: address,
      client_secret: store.secrets.encrypt(PROVIDER_CREDENTIALS_PURPOSE, sealed(appId), key),
      settings: '{}',
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['app_id', 'provider']).doNothing())
    .execute()
  const stored = await paymasterSignerAddress(store, appId)
  if (!stored) throw new Error(`The paymaster signer of app ${appId} was not stored`)
  return { address: stored, created: stored === address }
}

/** The app's paymaster signer address (nothing unsealed), or undefined when it has none. */
export async function paymasterSignerAddress(
  store: Pick<CredentialStore, 'db'>,
  appId: string,
): Promise<Address | undefined> {
  const row = await store.db
    .selectFrom('app_provider_credentials')
    .select('client_id')
    .where('app_id', '=', appId)
    .where('provider', '=', PAYMASTER_SIGNER_PROVIDER)
    .executeTakeFirst()
  return (row?.client_id ?? undefined) as Address | undefined
}

/**
 * The app's paymaster signer, unsealed; undefined when the operator has not
 * created one. A blob that fails to open (tampered, moved to another app,
 * other master key), or that opens to a key of another address, throws an
 * Error naming the app only.
 */
export async function getPaymasterSigner(
  store: CredentialStore,
  appId: string,
): Promise<LocalAccount | undefined> {
  const row = await store.db
    .selectFrom('app_provider_credentials')
    .select(['client_id', 'client_secret'])
    .where('app_id', '=', appId)
    .where('provider', '=', PAYMASTER_SIGNER_PROVIDER)
    .executeTakeFirst()
  if (!row) return undefined
  const unreadable = new Error(
    `the paymaster signer of app ${appId} failed to unseal: tampered, moved or wrong master key`,
  )
  let account: LocalAccount
  try {
    const key = store.secrets
      .decrypt(PROVIDER_CREDENTIALS_PURPOSE, sealed(appId), row.client_secret ?? '')
      .toString('utf8')
    account = privateKeyToAccount(key as Hex)
  } catch {
    throw unreadable
  }
  if (account.address !== row.client_id) throw unreadable
  return account
}
