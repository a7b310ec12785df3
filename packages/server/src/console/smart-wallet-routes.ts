import type { RouteDefinition } from '../http/route.ts'
import { ensurePaymasterSigner, paymasterSignerAddress } from '../smart-wallets/paymaster-key.ts'
import { recordAdminAction } from './audit.ts'
import { consoleAdminOf } from './guard.ts'
import { APP, anything, appOf, consoleRoute, noBody } from './route-kit.ts'

// The app's paymaster signer in the console (docs/smart-wallets.md "Sponsored
// gas"), as `latchkey apps smart-wallets paymaster-key` offers it: its address,
// and creating it once. The key is made and sealed on the server; no answer
// carries it, only the address the operator deploys VerifyingPaymaster with.
// The smart-wallet settings themselves go through the settings route.

const SIGNER = `${APP}/smart-wallets/paymaster-signer`

export const consolePaymasterSignerRoute = consoleRoute({
  method: 'get',
  path: SIGNER,
  summary: "The app's paymaster signer address (null: none yet)",
  response: anything,
  handler: async ({ c, services }) => {
    const app = await appOf(services, c.req.param('app_id'))
    return { address: (await paymasterSignerAddress(services, app.id)) ?? null }
  },
})

export const consolePaymasterSignerCreateRoute = consoleRoute({
  method: 'post',
  path: SIGNER,
  summary:
    "Create the app's paymaster signer if it has none (as `apps smart-wallets paymaster-key`); its address",
  body: noBody,
  response: anything,
  handler: async ({ c, services }) => {
    const app = await appOf(services, c.req.param('app_id'))
    const { address, created } = await ensurePaymasterSigner(services, app.id)
    // Only a new key is a change; asking again answers the same address.
    if (created)
      await recordAdminAction(
        services.db,
        consoleAdminOf(c).id,
        {
          action: 'app.paymaster_signer_create',
          appId: app.id,
          target: address,
          detail: {},
        },
        services.now(),
      )
    return { address, created }
  },
})

/** The smart-wallet console routes, registered in routes.ts CONSOLE_ROUTES. */
export const CONSOLE_SMART_WALLET_ROUTES: RouteDefinition[] = [
  consolePaymasterSignerRoute,
  consolePaymasterSignerCreateRoute,
]
