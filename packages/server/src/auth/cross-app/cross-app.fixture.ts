import { createHash, randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import type { AppRecord } from '../../apps/service.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../../test/instance.ts'
import { hdBody } from '../../test/wallets.ts'

/** The provider app's page (its consent and transact screens) is on TEST_ORIGIN. */
export const PROVIDER_ORIGIN = TEST_ORIGIN
export const REQUESTER_ORIGIN = 'http://requester.test'

export interface CrossAppFixture {
  t: TestInstance
  provider: AppRecord
  requester: AppRecord
  /** A provider user with an embedded Ethereum wallet. */
  providerUser(email: string): Promise<{ token: string; userId: string; address: string }>
  /** The provider page's accept: POST authorize as the provider user. */
  authorize(
    token: string,
    input?: { requesterAppId?: string; origin?: string; challenge?: string },
  ): ReturnType<TestInstance['request']>
  /** The requester's trade of a code. */
  authenticate(input: {
    code: string
    verifier: string
    appId?: string
    origin?: string
  }): ReturnType<TestInstance['request']>
}

/** RFC 7636 S256 pair. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/**
 * A server with a requester app R (origin REQUESTER_ORIGIN) and a provider
 * app P (cross_app on, page on PROVIDER_ORIGIN) that allows R.
 */
export async function crossAppFixture(
  options: { readOnly?: boolean } = {},
): Promise<CrossAppFixture> {
  const t = await getTestInstance()
  const requester = await t.createApp({}, [REQUESTER_ORIGIN])
  const provider = await t.createApp(
    {
      logo_url: 'https://provider.test/logo.png',
      cross_app: {
        enabled: true,
        read_only: options.readOnly ?? false,
        allowed_requester_app_ids: [requester.id],
        custom_api_url: `${PROVIDER_ORIGIN}/wallet`,
      },
    },
    [PROVIDER_ORIGIN],
  )
  const pending = pkce()
  return {
    t,
    provider,
    requester,
    async providerUser(email) {
      const auth = await t.login(email, { appId: provider.id, enclaveKey: t.enclaveKey })
      const token = auth.token as string
      const wallet = hdBody()
      const created = await t.enclaveRequest(routes.embeddedWalletsCreate, {
        token,
        body: wallet,
        appId: provider.id,
      })
      if (created.status !== 200) throw new Error(JSON.stringify(created.body))
      return { token, userId: auth.user.id, address: wallet.entropy_id }
    },
    authorize(token, input = {}) {
      return t.request(routes.crossAppAuthorize, {
        appId: provider.id,
        origin: PROVIDER_ORIGIN,
        token,
        body: {
          requester_app_id: input.requesterAppId ?? requester.id,
          code_challenge: input.challenge ?? pending.challenge,
          origin: input.origin ?? REQUESTER_ORIGIN,
        },
      })
    },
    authenticate(input) {
      return t.request(routes.crossAppAuthenticate, {
        appId: input.appId ?? requester.id,
        origin: input.origin ?? REQUESTER_ORIGIN,
        body: { provider_app_id: provider.id, code: input.code, code_verifier: input.verifier },
      })
    },
  }
}
