import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { isRunnableDevEnvironment } from 'vite'
import type { TestProject } from 'vitest/node'
import { ensureDelegationAndCrossApps } from './app-backend-setup.ts'
import { startE2EBridge } from './bridge-setup.ts'
import { startE2ECoinbase } from './coinbase-setup.ts'
import type { E2EOidcAccount } from './context.ts'
import { assertNoSecretsInLogs, createRunLogDir, E2E_LOG_DIR_ENV, e2eLogger } from './log-check.ts'
import { deliveredCodes, serveDemo } from './run-peers.ts'

export type { E2EContext, E2EOidcAccount } from './context.ts'

const APP_ID = 'e2eappaaaaaaaaaaaaaaaaaaa'
const WALLET_APP_ID = 'e2ewalletaaaaaaaaaaaaaaaa'
const PASSKEY_APP_ID = 'e2epasskeyaaaaaaaaaaaaaaa'
const CAPTCHA_APP_ID = 'e2ecaptchaaaaaaaaaaaaaaaa'
const GATES_APP_ID = 'e2egatesaaaaaaaaaaaaaaaaa'
const TRANSFER_APP_ID = 'e2etransferaaaaaaaaaaaaaa'
const LIMIT_APP_ID = 'e2elimitaaaaaaaaaaaaaaaaa'
const MFA_APP_ID = 'e2emfaaaaaaaaaaaaaaaaaaaa'
const FUNDING_APP_ID = 'e2efundingaaaaaaaaaaaaaaa'
const COINBASE_APP_ID = 'e2ecoinbaseaaaaaaaaaaaaaa'
const BRIDGE_APP_ID = 'e2ebridgeaaaaaaaaaaaaaaaa'
/**
 * MoonPay for the funding app: the key pair the server signs widget URLs
 * with, and hosts that do not resolve — the funding browser tests route
 * them to their own local MoonPay (packages/core/src/test/fake-moonpay.ts).
 */
const MOONPAY = {
  publishableKey: 'pk_test_latchkeye2e',
  secretKey: 'sk_test_latchkeye2esecret0123456789',
  apiUrl: 'https://api.moonpay.e2e.invalid',
  widgetUrl: 'https://buy.moonpay.e2e.invalid',
}
const GOOGLE_CLIENT = {
  clientId: 'latchkey-e2e.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-e2e-client-secret-0123456789',
}
const ICLOUD_CONTAINER = {
  containerId: 'iCloud.test.latchkey.e2e',
  environment: 'development' as const,
  apiToken: 'ck00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff',
}
/**
 * Google accounts at the local OpenID Provider, one per purpose so that tests
 * never depend on each other's users: the first logs in by default.
 */
const OIDC_ACCOUNTS: E2EOidcAccount[] = [
  { sub: 'google-login', email: 'google.login@example.com' },
  { sub: 'google-link', email: 'google.link@example.com' },
  { sub: 'google-taken', email: 'google.taken@example.com' },
]
const root = join(import.meta.dirname, '..')

/**
 * Imports a workspace package from its TypeScript sources, as the tests do:
 * through Vite's SSR environment, which resolves the `latchkey-source` export
 * condition (vitest.config.ts). The loader of this file does not: Vitest's
 * own environment keeps Vite's default conditions, which pick `dist/`.
 */
function importSource<T>(project: TestProject, id: string): Promise<T> {
  const ssr = project.vite.environments.ssr
  if (!ssr || !isRunnableDevEnvironment(ssr)) throw new Error('no runnable SSR environment')
  return ssr.runner.import(id)
}

/**
 * The browser tests need a Chromium binary (Playwright cannot download its
 * own here): without one they fail at once, saying what to install, rather
 * than after minutes of setup or not at all.
 */
function assertChromium(): void {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
  if (existsSync(path)) return
  throw new Error(
    `The browser tests need Chromium at ${path}, and there is none.\n` +
      '  Debian/Ubuntu: sudo apt-get install chromium\n' +
      '  Elsewhere: set CHROMIUM_PATH to a Chromium or Chrome binary.\n' +
      'Only the tests without a browser: npm run test:unit',
  )
}

/**
 * Starts what a user runs: the Latchkey server (SQLite in a temp dir, or a
 * fresh schema of DATABASE_URL's Postgres) with the dev mailbox, and the demo
 * app on Vite, with the demo's origin allowed. Google and GitHub logins go to
 * local peers: a real OpenID Provider and a GitHub look-alike.
 */
export default async function setup(project: TestProject) {
  assertChromium()
  const { startServer, ensureApp, createJsonLogger } = await importSource<
    typeof import('@latchkey/server')
  >(project, '@latchkey/server')
  const { startFakeGoogle, startFakeCloudKit } = await importSource<
    typeof import('@latchkey/server/test/fakes')
  >(project, '@latchkey/server/test/fakes')
  const google = await startFakeGoogle({ clients: [GOOGLE_CLIENT] })
  const cloudKit = await startFakeCloudKit(ICLOUD_CONTAINER)
  const { startTestOidcProvider, startTestGithub } = await importSource<
    typeof import('@latchkey/server/test/oidc')
  >(project, '@latchkey/server/test/oidc')
  // The server needs the provider's endpoints before it starts, the demo needs
  // the server's URL, and the provider's client needs the demo's page as its
  // redirect URI: the provider listens now (its issuer is known) and has the
  // demo page registered once Vite is up.
  const oidc = await startTestOidcProvider({
    redirectUris: [],
    accounts: OIDC_ACCOUNTS.map((a) => ({ ...a, email_verified: true, name: a.sub })),
  })
  const github = await startTestGithub()
  const coinbase = await startE2ECoinbase((path) => importSource(project, path), root)
  const bridge = await startE2EBridge((path) => importSource(project, path), root)
  const dataDir = await mkdtemp(join(tmpdir(), 'latchkey-e2e-'))
  // JSON logs of every server of the run, searched for secrets at the end (log-check.ts).
  const logDir = createRunLogDir()
  process.env[E2E_LOG_DIR_ENV] = logDir

  let databaseUrl: string | undefined
  let dropSchema: (() => Promise<void>) | undefined
  if (process.env.DATABASE_URL) {
    const pg = await import('pg')
    const schema = `e2e_${Date.now().toString(36)}_${process.pid}`
    const admin = new pg.default.Client({ connectionString: process.env.DATABASE_URL })
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    await admin.end()
    const url = new URL(process.env.DATABASE_URL)
    url.searchParams.set('options', `-c search_path=${schema}`)
    databaseUrl = url.toString()
    dropSchema = async () => {
      const client = new pg.default.Client({ connectionString: process.env.DATABASE_URL })
      await client.connect()
      await client.query(`DROP SCHEMA ${schema} CASCADE`)
      await client.end()
    }
  }

  const server = await startServer({
    port: 0,
    hostname: '127.0.0.1',
    dataDir,
    databaseUrl,
    forceDevMailbox: true,
    // One user logs in on two devices within a test: the 30 s resend cooldown
    // has its own server tests; here it would only make the suite wait. Every
    // browser comes from 127.0.0.1, so the per-IP caps (their own server tests
    // too) would count the whole suite as one visitor.
    rateLimits: {
      codeResendCooldownMs: 1_000,
      codeSendsPerIp: { limit: 10_000, windowMs: 60 * 60_000 },
      codeAttemptsPerIp: { limit: 10_000, windowMs: 60 * 60_000 },
      walletKeyRequestsPerIp: { limit: 10_000, windowMs: 10 * 60_000 },
    },
    cloudRecovery: {
      google: {
        authorizationUrl: google.authorizationUrl,
        tokenUrl: google.tokenUrl,
        apiBaseUrl: google.apiBaseUrl,
      },
      icloud: { apiBaseUrl: cloudKit.apiBaseUrl },
    },
    oauth: { endpoints: { google: oidc.endpoints, github: github.endpoints } },
    funding: {
      moonpay: {
        apiUrl: MOONPAY.apiUrl,
        widgetUrl: MOONPAY.widgetUrl,
        sandboxWidgetUrl: MOONPAY.widgetUrl,
      },
      coinbase: { apiUrl: coinbase.apiUrl, payUrl: coinbase.payUrl },
      bridge: { apiUrl: bridge.apiUrl, testnetApiUrl: bridge.apiUrl },
    },
    logger: e2eLogger(
      createJsonLogger({ level: 'debug', destination: join(logDir, 'server.jsonl') }),
    ),
  })

  const demo = await serveDemo(root, { apiUrl: server.url, appId: APP_ID })
  const address = demo.httpServer?.address()
  if (!address || typeof address === 'string') throw new Error('demo server did not start')
  const demoUrl = `http://127.0.0.1:${address.port}`
  // The client sends the page it is on (origin + path) as redirect_to.
  oidc.setRedirectUris([`${demoUrl}/`])

  await ensureApp(server.server.db, {
    id: APP_ID,
    name: 'E2E Demo',
    origins: [demoUrl],
    settings: {
      login_methods: { email: true, sms: true, google: true, github: true, guest: true },
      embedded_wallet_config: {
        user_owned_recovery_options: ['user-passcode', 'google-drive', 'icloud'],
      },
    },
  })
  await ensureApp(server.server.db, {
    id: WALLET_APP_ID,
    name: 'E2E Wallet Demo',
    origins: [demoUrl],
    settings: { login_methods: { email: true, wallet: true } },
  })
  await ensureApp(server.server.db, {
    id: PASSKEY_APP_ID,
    name: 'E2E Passkeys',
    // WebAuthn refuses an IP address as RP ID: passkey tests open the demo on localhost.
    origins: [demoUrl, demoUrl.replace('127.0.0.1', 'localhost')],
    // Passkey sign-up from the app setting; tests turn it off with `?passkeySignup=0`.
    settings: { login_methods: { email: true, passkey: true }, passkeys_for_signup_enabled: true },
  })
  await ensureApp(server.server.db, {
    id: CAPTCHA_APP_ID,
    name: 'E2E Captcha',
    origins: [demoUrl],
    settings: { login_methods: { email: true }, captcha_enabled: true },
  })
  await ensureApp(server.server.db, {
    id: GATES_APP_ID,
    name: 'E2E Gates',
    origins: [demoUrl],
    settings: {
      login_methods: { email: true, sms: true },
      require_users_accept_terms: true,
      terms_and_conditions_url: `${demoUrl}/terms.html`,
      privacy_policy_url: `${demoUrl}/privacy.html`,
      allowlist: {
        enabled: true,
        entries: [
          { type: 'email_domain', value: 'invited.example' },
          { type: 'email', value: 'guest.list@example.com' },
        ],
      },
    },
  })
  await ensureApp(server.server.db, {
    id: TRANSFER_APP_ID,
    name: 'E2E Transfer',
    origins: [demoUrl],
    settings: { login_methods: { email: true, sms: true } },
  })
  await ensureApp(server.server.db, {
    id: LIMIT_APP_ID,
    name: 'E2E Limit',
    origins: [demoUrl],
    settings: { login_methods: { email: true }, max_users: 1 },
  })
  await ensureApp(server.server.db, {
    id: MFA_APP_ID,
    name: 'E2E MFA',
    origins: [demoUrl, demoUrl.replace('127.0.0.1', 'localhost')],
    settings: {
      login_methods: { email: true, sms: true, passkey: true },
      mfa_methods: ['totp', 'sms', 'passkey'],
    },
  })
  await ensureApp(server.server.db, {
    id: FUNDING_APP_ID,
    name: 'E2E Funding',
    origins: [demoUrl],
    settings: {
      login_methods: { email: true },
      funding: {
        options: [
          { method: 'card', provider: 'moonpay' },
          { method: 'wallets', provider: null },
          { method: 'manual', provider: null },
        ],
        default_recommended_amount: '0.5',
        moonpay: { publishable_key: MOONPAY.publishableKey, sandbox: true },
      },
    },
  })
  await server.server.setAppProviderCredentials(FUNDING_APP_ID, {
    provider: 'moonpay',
    secret_key: MOONPAY.secretKey,
  })
  await coinbase.addApp(server.server, ensureApp, COINBASE_APP_ID, [demoUrl])
  await bridge.addApp(server.server, ensureApp, BRIDGE_APP_ID, [demoUrl])
  // The demo page is where both providers send the user back (CloudKit: the API token's callback).
  cloudKit.setSignInCallbackUrl(`${demoUrl}/`)
  await server.server.setAppProviderCredentials(APP_ID, {
    provider: 'google-drive',
    client_id: GOOGLE_CLIENT.clientId,
    client_secret: GOOGLE_CLIENT.clientSecret,
  })
  await server.server.setAppProviderCredentials(APP_ID, {
    provider: 'icloud',
    container_id: ICLOUD_CONTAINER.containerId,
    environment: ICLOUD_CONTAINER.environment,
    api_token: ICLOUD_CONTAINER.apiToken,
  })
  await server.server.setAppProviderCredentials(APP_ID, {
    provider: 'google',
    client_id: oidc.clientId,
    client_secret: oidc.clientSecret,
  })
  await server.server.setAppProviderCredentials(APP_ID, {
    provider: 'github',
    client_id: github.clientId,
    client_secret: github.clientSecret,
  })

  const { delegation, crossApp } = await ensureDelegationAndCrossApps({
    ensureApp: (app) => ensureApp(server.server.db, app),
    importSource: (id) => importSource(project, id),
    db: server.server.db,
    root,
    demoUrl,
  })

  project.provide('e2e', {
    serverUrl: server.url,
    // Where `latchkey` CLI commands reach this server's database (e2e/console.test.ts).
    dataDir,
    databaseUrl: databaseUrl ?? null,
    demoUrl,
    appId: APP_ID,
    walletAppId: WALLET_APP_ID,
    passkeyAppId: PASSKEY_APP_ID,
    captchaAppId: CAPTCHA_APP_ID,
    gatesAppId: GATES_APP_ID,
    transferAppId: TRANSFER_APP_ID,
    limitAppId: LIMIT_APP_ID,
    mfaAppId: MFA_APP_ID,
    fundingAppId: FUNDING_APP_ID,
    moonpay: {
      apiUrl: MOONPAY.apiUrl,
      widgetUrl: MOONPAY.widgetUrl,
      publishableKey: MOONPAY.publishableKey,
    },
    coinbaseAppId: COINBASE_APP_ID,
    coinbase: { payUrl: coinbase.payUrl, controlUrl: coinbase.controlUrl },
    bridgeAppId: BRIDGE_APP_ID,
    bridge: { controlUrl: bridge.controlUrl },
    fakeGoogleUrl: google.url,
    fakeCloudKitUrl: cloudKit.url,
    oidcIssuer: oidc.issuer,
    oidcAccounts: OIDC_ACCOUNTS,
    githubUrl: new URL(github.endpoints.authorizationUrl).origin,
    delegation,
    crossApp,
  })

  return async () => {
    await demo.close()
    const known = await deliveredCodes(server.server)
    await server.close()
    await Promise.all([
      google.close(),
      cloudKit.close(),
      oidc.close(),
      github.close(),
      coinbase.close(),
      bridge.close(),
    ])
    await dropSchema?.()
    await rm(dataDir, { recursive: true, force: true })
    assertNoSecretsInLogs(logDir, {
      codes: known,
      secrets: [
        GOOGLE_CLIENT.clientSecret,
        ICLOUD_CONTAINER.apiToken,
        MOONPAY.secretKey,
        coinbase.key.secret,
        oidc.clientSecret,
        github.clientSecret,
        ...(delegation.appSecret ? [delegation.appSecret] : []),
      ],
    })
  }
}
