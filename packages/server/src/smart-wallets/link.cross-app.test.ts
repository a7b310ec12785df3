import { routes } from '@latchkey/protocol'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pkce } from '../auth/cross-app/cross-app.fixture.ts'
import { siweMessage, siweNonce } from '../auth/siwe/testing.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../test/instance.ts'
import { setAppSettings } from '../users/testing.ts'
import { postLink, smartWalletAppSettings, userWithEmbeddedWallet } from './link.test-helper.ts'

// Spec 01 §3 "Cross-app account: providerApp.id, embeddedWallets,
// smartWallets": a requester user logged in through a provider app carries
// the provider user's smart wallet beside their embedded wallets.
const REQUESTER_ORIGIN = 'http://requester.test'
let t: TestInstance

beforeAll(async () => {
  t = await getTestInstance({ appSettings: smartWalletAppSettings(31337) })
})
afterAll(() => t?.close())

describe('cross_app account', () => {
  it('carries the provider user’s smart wallet', async () => {
    const requester = await t.createApp({}, [REQUESTER_ORIGIN])
    await setAppSettings(t, t.app.id, {
      ...smartWalletAppSettings(31337),
      cross_app: {
        enabled: true,
        allowed_requester_app_ids: [requester.id],
        custom_api_url: `${TEST_ORIGIN}/wallet`,
      },
    })
    const provider = await userWithEmbeddedWallet(t, 'provider@example.com')
    const message = siweMessage(
      t,
      provider.owner.address,
      await siweNonce(t, provider.owner.address),
      { chainId: 31337 },
    )
    const signature = await provider.owner.signMessage({ message })
    const linked = await postLink(t, provider.token, { message, signature, type: 'simple_7702' })
    expect(linked.status).toBe(200)

    const { verifier, challenge } = pkce()
    const authorized = await t.request(routes.crossAppAuthorize, {
      origin: TEST_ORIGIN,
      token: provider.token,
      body: { requester_app_id: requester.id, code_challenge: challenge, origin: REQUESTER_ORIGIN },
    })
    expect(authorized.status).toBe(200)
    const res = await t.request(routes.crossAppAuthenticate, {
      appId: requester.id,
      origin: REQUESTER_ORIGIN,
      body: { provider_app_id: t.app.id, code: authorized.body.code, code_verifier: verifier },
    })
    expect(res.status).toBe(200)
    expect(res.body.user.linked_accounts).toEqual([
      expect.objectContaining({
        type: 'cross_app',
        subject: provider.userId,
        embedded_wallets: [
          { address: provider.owner.address.toLowerCase(), chain_type: 'ethereum' },
        ],
        smart_wallets: [{ address: provider.owner.address }],
      }),
    ])
  })
})
