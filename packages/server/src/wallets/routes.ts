import {
  addEmbeddedWalletRequestSchema,
  authShareResponseSchema,
  createEmbeddedWalletsRequestSchema,
  entropyRequestSchema,
  keyActivityQuerySchema,
  keyActivityResponseSchema,
  recoveryMaterialResponseSchema,
  routes,
  setRecoveryRequestSchema,
  userSchema,
} from '@latchkey/protocol'
import { defineRoute } from '../http/route.ts'
import { keyReleaseOrigin, listKeyReleases } from './key-releases.ts'
import { limitWalletKeyRequests } from './limit-wallet-key-requests.ts'
import { getRecoveryMaterial, releaseAuthShare } from './release.ts'
import { addEmbeddedWallet, createEmbeddedWallets, setRecovery } from './service.ts'

// Key routes (create, add, auth share, recovery, set recovery) answer only to
// the enclave page, with a proof signed by the session's enclave key
// (`auth: 'enclave'`, http/enclave-auth.ts). Those that release or replace
// key material (auth share — signing and export —, recovery, set recovery)
// also need a fresh MFA verification when the user has MFA (`mfa: true`,
// docs/mfa.md); creating and adding wallets release nothing. Key activity is
// read by the host. Each completed operation is counted
// (latchkey_wallet_operations_total; releases in key-releases.ts).

export const embeddedWalletsCreateRoute = defineRoute({
  method: 'post',
  path: routes.embeddedWalletsCreate,
  summary: "Store a new secret's auth and recovery shares and its first wallets, atomically",
  tags: ['embedded-wallets'],
  auth: 'enclave',
  body: createEmbeddedWalletsRequestSchema,
  response: userSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    const user = await createEmbeddedWallets(services, app, auth, body)
    services.metrics.walletOperation(body.entropy_type === 'private-key' ? 'import' : 'create')
    return user
  },
})

export const embeddedWalletsAddRoute = defineRoute({
  method: 'post',
  path: routes.embeddedWalletsAdd,
  summary: "Add another HD wallet of the signed-in user's secret",
  tags: ['embedded-wallets'],
  auth: 'enclave',
  body: addEmbeddedWalletRequestSchema,
  response: userSchema,
  handler: async ({ c, services, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    const user = await addEmbeddedWallet(services, auth, body)
    services.metrics.walletOperation('add')
    return user
  },
})

export const embeddedWalletsAuthShareRoute = defineRoute({
  method: 'post',
  path: routes.embeddedWalletsAuthShare,
  summary: "The auth share of the signed-in user's own secret",
  tags: ['embedded-wallets'],
  auth: 'enclave',
  mfa: true,
  body: entropyRequestSchema,
  response: authShareResponseSchema,
  handler: async ({ c, services, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return releaseAuthShare(services, auth, body.entropy_id, keyReleaseOrigin(c, services, auth))
  },
})

export const embeddedWalletsRecoveryRoute = defineRoute({
  method: 'post',
  path: routes.embeddedWalletsRecovery,
  summary: "The recovery material of the signed-in user's own secret",
  tags: ['embedded-wallets'],
  auth: 'enclave',
  mfa: true,
  body: entropyRequestSchema,
  response: recoveryMaterialResponseSchema,
  handler: async ({ c, services, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return getRecoveryMaterial(services, auth, body.entropy_id, keyReleaseOrigin(c, services, auth))
  },
})

export const embeddedWalletsSetRecoveryRoute = defineRoute({
  method: 'post',
  path: routes.embeddedWalletsSetRecovery,
  summary: "Replace the recovery method and material of the signed-in user's own secret",
  tags: ['embedded-wallets'],
  auth: 'enclave',
  mfa: true,
  body: setRecoveryRequestSchema,
  response: userSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    const user = await setRecovery(services, app, auth, body)
    services.metrics.walletOperation('set_recovery')
    return user
  },
})

export const embeddedWalletsKeyActivityRoute = defineRoute({
  method: 'get',
  path: routes.embeddedWalletsKeyActivity,
  summary: "The signed-in user's own key releases (auth share, recovery material), newest first",
  tags: ['embedded-wallets'],
  auth: 'user',
  query: keyActivityQuerySchema,
  response: keyActivityResponseSchema,
  handler: async ({ services, auth, query }) =>
    listKeyReleases(services.db, {
      userId: auth.userId,
      appId: auth.appId,
      limit: query.limit,
      cursor: query.cursor,
    }),
})

export const walletRoutes = [
  embeddedWalletsCreateRoute,
  embeddedWalletsAddRoute,
  embeddedWalletsAuthShareRoute,
  embeddedWalletsRecoveryRoute,
  embeddedWalletsSetRecoveryRoute,
  embeddedWalletsKeyActivityRoute,
]
