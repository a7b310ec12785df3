import { createHash, randomBytes } from 'node:crypto'
import { routes } from '@latchkey/protocol'
import type { AppSettings } from '../apps/service.ts'
import type { LatchkeyServerOptions } from '../config.ts'
import {
  type FakeCloudKit,
  type FakeGoogle,
  startFakeCloudKit,
  startFakeGoogle,
} from './fakes/index.ts'
import { getTestInstance, TEST_ORIGIN, type TestInstance } from './instance.ts'

// Cloud-recovery test setup: the local fake Google and CloudKit servers (real
// HTTP), a test instance pointed at them, and its app configured for both.

export const GOOGLE_CLIENT = {
  clientId: 'latchkey-test.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-test-client-secret-0123456789',
}
export const ICLOUD_CONTAINER = {
  containerId: 'iCloud.test.latchkey.app',
  environment: 'development' as const,
  apiToken: 'ck0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcd',
}
/** The app page the providers send the user back to. */
export const REDIRECT_TO = `${TEST_ORIGIN}/wallet`

/** Every user-owned method offered. */
export const cloudAppSettings: AppSettings = {
  embedded_wallet_config: {
    user_owned_recovery_options: ['user-passcode', 'google-drive', 'icloud'],
  },
}

/** A PKCE pair (RFC 7636): a 43-character verifier and its S256 challenge. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') }
}

/** A host-made state code: 128 random bits, base64url. */
export const stateCode = (): string => randomBytes(16).toString('base64url')

export interface CloudTestInstance extends TestInstance {
  google: FakeGoogle
  cloudKit: FakeCloudKit
  /** A logged-in user's access token (its session bound to `enclaveKey`). */
  userToken(email: string): Promise<string>
  /**
   * POST init (Google Drive) for `token`, then have the fake Google issue a
   * code as its consent page would (same client, redirect URI and
   * challenge). Returns what the host would hand to the enclave.
   */
  googleConsent(
    token: string,
    options?: { account?: string; scope?: string },
  ): Promise<{ state: string; verifier: string; code: string; url: URL }>
  /** POST init_icloud, then a web auth token the fake CloudKit issues for `account`. */
  icloudConsent(
    token: string,
    options?: { account?: string },
  ): Promise<{ state: string; code: string; url: URL }>
}

/**
 * A test instance whose app offers Google Drive and iCloud recovery with
 * credentials set, its cloud endpoints on the local fakes. Close it with
 * `close()` (stops the fakes too).
 *
 * @example
 * const t = await getCloudTestInstance()
 * afterAll(() => t.close())
 * const consent = await t.googleConsent(await t.userToken('alice@example.com'))
 */
export async function getCloudTestInstance(
  options: Partial<LatchkeyServerOptions> & { appSettings?: AppSettings } = {},
): Promise<CloudTestInstance> {
  const google = await startFakeGoogle({ clients: [GOOGLE_CLIENT] })
  const cloudKit = await startFakeCloudKit({
    containerId: ICLOUD_CONTAINER.containerId,
    environment: ICLOUD_CONTAINER.environment,
    apiToken: ICLOUD_CONTAINER.apiToken,
    signInCallbackUrl: REDIRECT_TO,
  })
  let t: TestInstance
  try {
    t = await getTestInstance({
      appSettings: cloudAppSettings,
      ...options,
      cloudRecovery: {
        google: {
          authorizationUrl: google.authorizationUrl,
          tokenUrl: google.tokenUrl,
          apiBaseUrl: google.apiBaseUrl,
        },
        icloud: { apiBaseUrl: cloudKit.apiBaseUrl },
        ...(options.cloudRecovery ?? {}),
      },
    })
  } catch (error) {
    await Promise.all([google.close(), cloudKit.close()])
    throw error
  }
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'google-drive',
    client_id: GOOGLE_CLIENT.clientId,
    client_secret: GOOGLE_CLIENT.clientSecret,
  })
  await t.server.setAppProviderCredentials(t.app.id, {
    provider: 'icloud',
    container_id: ICLOUD_CONTAINER.containerId,
    environment: ICLOUD_CONTAINER.environment,
    api_token: ICLOUD_CONTAINER.apiToken,
  })

  const instance: CloudTestInstance = {
    ...t,
    google,
    cloudKit,
    async userToken(email) {
      return (await t.login(email, { enclaveKey: t.enclaveKey })).token ?? ''
    },
    async googleConsent(token, opts = {}) {
      const state = stateCode()
      const { verifier, challenge } = pkce()
      const res = await t.request(routes.recoveryOAuthInit, {
        token,
        body: {
          provider: 'google-drive',
          redirect_to: REDIRECT_TO,
          code_challenge: challenge,
          state_code: state,
        },
      })
      if (res.status !== 200) throw new Error(`init failed: ${JSON.stringify(res.body)}`)
      const url = new URL(res.body.url)
      const code = google.issueCode({
        clientId: url.searchParams.get('client_id') ?? '',
        redirectUri: url.searchParams.get('redirect_uri') ?? '',
        codeChallenge: url.searchParams.get('code_challenge') ?? '',
        account: opts.account ?? 'alice@example.com',
        ...(opts.scope ? { scope: opts.scope } : {}),
      })
      return { state, verifier, code, url }
    },
    async icloudConsent(token, opts = {}) {
      const state = stateCode()
      const res = await t.request(routes.recoveryOAuthInitIcloud, {
        token,
        body: { client_type: 'web', redirect_to: REDIRECT_TO, state_code: state },
      })
      if (res.status !== 200) throw new Error(`init_icloud failed: ${JSON.stringify(res.body)}`)
      const code = cloudKit.issueWebAuthToken(opts.account ?? 'alice@icloud.com')
      return { state, code, url: new URL(res.body.url) }
    },
    async close() {
      await t.close()
      await Promise.all([google.close(), cloudKit.close()])
    },
  }
  return instance
}
