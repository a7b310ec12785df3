import {
  farcasterSignerRequestSchema,
  farcasterSignerResponseSchema,
  routes,
} from '@latchkey/protocol'
import { defineRoute } from '../../http/route.ts'
import { limitWalletKeyRequests } from '../../wallets/limit-wallet-key-requests.ts'
import { farcasterSignerStatus, initFarcasterSigner } from './signer-service.ts'

/**
 * Starts the Farcaster signed key request of the enclave's ed25519 key. An
 * enclave route: only the enclave page, with its device key's proof, can ask
 * for a signer (the key it names is one the enclave holds).
 */
export const farcasterSignerInitRoute = defineRoute({
  method: 'post',
  path: routes.farcasterSignerInit,
  summary: 'Request a Farcaster signer for the enclave’s ed25519 key (enclave only)',
  tags: ['farcaster'],
  auth: 'enclave',
  body: farcasterSignerRequestSchema,
  response: farcasterSignerResponseSchema,
  handler: async ({ c, services, app, auth, body }) => {
    await limitWalletKeyRequests(c, services)
    return initFarcasterSigner(services, app, auth, body.ed25519_public_key)
  },
})

/** The signer request's state; polled every 2 s by the modal (spec 03 §7). Own keys only. */
export const farcasterSignerStatusRoute = defineRoute({
  method: 'post',
  path: routes.farcasterSignerStatus,
  summary: 'The state of the signed-in user’s Farcaster signer request for a key',
  tags: ['farcaster'],
  auth: 'user',
  body: farcasterSignerRequestSchema,
  response: farcasterSignerResponseSchema,
  handler: ({ services, app, auth, body }) =>
    farcasterSignerStatus(services, app, auth, body.ed25519_public_key),
})

export const farcasterSignerRoutes = [farcasterSignerInitRoute, farcasterSignerStatusRoute]
