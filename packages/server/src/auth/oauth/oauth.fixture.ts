import { routes } from '@latchkey/protocol'
import { pkce, stateCode } from '../../test/cloud.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from '../../test/instance.ts'
import {
  startTestGithub,
  startTestOidcProvider,
  type TestGithub,
  type TestOidcProvider,
} from '../../test/oidc.ts'

/*
 * Shared setup of the OAuth login tests: a Latchkey instance whose app has
 * Google pointed at a local OpenID Provider and GitHub at a local GitHub
 * look-alike, both switched on with credentials.
 */

export const REDIRECT_TO = `${TEST_ORIGIN}/login`

export interface OAuthTestInstance extends TestInstance {
  oidc: TestOidcProvider
  github: TestGithub
  /** Real time, movable: id_tokens from the provider carry real iat/exp. */
  advance(ms: number): void
  /** init → provider → the return: what the browser would hand to authenticate / link. */
  redirect(
    provider: 'google' | 'github',
    options?: {
      accountId?: string
      deny?: boolean
      token?: string
      intent?: 'login' | 'link'
      /** The captcha token of a login start, for an app with captcha enabled. */
      captchaToken?: string
    },
  ): Promise<{ code: string; state: string; verifier: string; back: URL }>
}

export async function getOAuthTestInstance(
  options: { returnProviderTokens?: boolean; captcha?: boolean } = {},
): Promise<OAuthTestInstance> {
  const oidc = await startTestOidcProvider({
    redirectUris: [REDIRECT_TO],
    accounts: [
      { sub: 'alice-sub', email: 'alice@example.com', email_verified: true, name: 'Alice' },
      { sub: 'bob-sub', email: 'bob@example.com', email_verified: false, name: 'Bob' },
      { sub: 'carol-sub', name: 'Carol' },
    ],
  })
  const github = await startTestGithub()
  let offset = 0
  const t = await getTestInstance({
    now: () => Date.now() + offset,
    oauth: { endpoints: { google: oidc.endpoints, github: github.endpoints } },
    appSettings: {
      login_methods: { google: true, github: true },
      oauth: { return_provider_tokens: options.returnProviderTokens ?? false },
      ...(options.captcha ? { captcha_enabled: true } : {}),
    },
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'google',
    client_id: oidc.clientId,
    client_secret: oidc.clientSecret,
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'github',
    client_id: github.clientId,
    client_secret: github.clientSecret,
  })
  const close = t.close
  return Object.assign(t, {
    oidc,
    github,
    advance: (ms: number) => {
      offset += ms
    },
    async redirect(
      provider: 'google' | 'github',
      opts: {
        accountId?: string
        deny?: boolean
        token?: string
        intent?: 'login' | 'link'
        captchaToken?: string
      } = {},
    ) {
      const { verifier, challenge } = pkce()
      const state = stateCode()
      const init = await t.request(routes.oauthInit, {
        token: opts.token,
        body: {
          provider,
          redirect_to: REDIRECT_TO,
          code_challenge: challenge,
          state_code: state,
          intent: opts.intent ?? (opts.token ? 'link' : 'login'),
          ...(opts.captchaToken ? { token: opts.captchaToken } : {}),
        },
      })
      if (init.status !== 200) throw new Error(`init failed: ${JSON.stringify(init.body)}`)
      const back =
        provider === 'google'
          ? await oidc.authorize(init.body.url, { accountId: opts.accountId, deny: opts.deny })
          : await github.authorize(init.body.url, { login: opts.accountId, deny: opts.deny })
      return {
        code: back.searchParams.get('code') ?? 'undefined',
        state: back.searchParams.get('state') ?? '',
        verifier,
        back,
      }
    },
    async close() {
      await close()
      await oidc.close()
      await github.close()
    },
  })
}
