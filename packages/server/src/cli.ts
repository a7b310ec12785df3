import { realpathSync } from 'node:fs'
import { resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { DEFAULT_LOGIN_METHOD_SWITCHES } from '@latchkey/protocol/constants'
import type { Kysely } from 'kysely'
import {
  deleteAppProviderCredentials,
  isCredentialProvider,
  type ProviderCredentials,
  setAppProviderCredentials,
} from './apps/credentials.ts'
import {
  type AppSettings,
  createApp,
  ensureApp,
  getAppById,
  listApps,
  updateAppSettings,
} from './apps/service.ts'
import { consoleLogger, loadConfigFromEnv } from './config.ts'
import { SecretBox } from './crypto/secrets.ts'
import { connectDatabase } from './db/connect.ts'
import { migrateToLatest } from './db/migrate.ts'
import type { Database } from './db/types.ts'
import { resolveMasterKey } from './server.ts'
import { rotateSigningKey } from './sessions/keys.ts'
import { startServer } from './start.ts'

const USAGE = `Usage: latchkey <command>

  serve                                  start the server (env: see docs/server.md)
  migrate                                apply pending database migrations
  apps create --name N --origin URL…     create an app; prints its id and secret (shown once)
              [--logo-url URL] [--accent-color #RRGGBB]
  apps list                              list apps
  apps ensure --id ID --name N --origin URL…   create or update an app with a fixed id
              [--login-method M…]        exactly these login methods on (email, sms, google, guest…)
  apps settings ID [--set JSON]          print the app's settings, or merge a JSON object into them
                                         (e.g. '{"require_users_accept_terms":true}'; null removes a key;
                                         see docs/server.md "App settings")
  apps credentials set ID google-drive --client-id X --client-secret-env VAR
                                         Google OAuth client for Drive backups (secret read from $VAR)
  apps credentials set ID icloud --container-id iCloud.… --environment development|production
              (--api-token-env VAR | --api-token T)   CloudKit container and API token for iCloud backups
  apps credentials set ID telegram --bot-name NAME --bot-token-env VAR
                                         Telegram bot for Telegram login (token read from $VAR)
  apps credentials delete ID google-drive|icloud
  keys rotate                            new signing key (the old one stays in the JWKS until its tokens expire)
`

/** `--login-method` values → the app's login switches: exactly the listed methods on. */
function loginMethodSettings(methods: string[]): AppSettings {
  const known = Object.keys(DEFAULT_LOGIN_METHOD_SWITCHES)
  const unknown = methods.filter((m) => !known.includes(m))
  if (unknown.length > 0) throw new Error(`Unknown login method: ${unknown.join(', ')}`)
  return {
    login_methods: Object.fromEntries(known.map((m) => [m, methods.includes(m)])),
  }
}

export interface CliIo {
  env?: NodeJS.ProcessEnv
  out?: (line: string) => void
  err?: (line: string) => void
  /** Use this database instead of the configured one (tests). */
  db?: Kysely<Database>
}

/**
 * Runs one CLI command and returns the exit code.
 *
 * @example
 * await runCli(['apps', 'create', '--name', 'Demo', '--origin', 'http://localhost:5173'])
 */
export async function runCli(argv: string[], io: CliIo = {}): Promise<number> {
  const env = io.env ?? process.env
  const out = io.out ?? ((line: string) => process.stdout.write(`${line}\n`))
  const err = io.err ?? ((line: string) => process.stderr.write(`${line}\n`))
  const config = loadConfigFromEnv(env)
  const [command, sub] = argv
  // `apps credentials <set|delete> <appId> <provider> …`: the only command with positionals.
  const credentialsCommand = command === 'apps' && sub === 'credentials'
  // `apps settings <appId> [--set JSON]`: one positional.
  const settingsCommand = command === 'apps' && sub === 'settings'
  const { values, positionals } = parseArgs({
    args: argv.slice(credentialsCommand ? 3 : command === 'apps' || command === 'keys' ? 2 : 1),
    options: {
      name: { type: 'string' },
      origin: { type: 'string', multiple: true },
      id: { type: 'string' },
      'logo-url': { type: 'string' },
      'accent-color': { type: 'string' },
      'client-id': { type: 'string' },
      'client-secret-env': { type: 'string' },
      'container-id': { type: 'string' },
      environment: { type: 'string' },
      'api-token': { type: 'string' },
      'api-token-env': { type: 'string' },
      'bot-name': { type: 'string' },
      'bot-token-env': { type: 'string' },
      'secret-key-env': { type: 'string' },
      'login-method': { type: 'string', multiple: true },
      set: { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: credentialsCommand || settingsCommand,
  })
  if (!command || values.help || command === 'help') {
    out(USAGE)
    return command ? 0 : 1
  }

  if (command === 'serve') {
    const running = await startServer({ ...config, logger: consoleLogger })
    out(
      `Latchkey listening on ${running.url} (public URL ${running.server.services.config.publicUrl})`,
    )
    if (running.server.services.config.devMailbox)
      out(`Dev mailbox: ${running.server.services.config.publicUrl}/dev/mailbox`)
    const stop = async () => {
      await running.close()
      process.exit(0)
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    return 0
  }

  const dataDir = resolve(config.dataDir ?? '.data')
  const db = io.db ?? connectDatabase(config.databaseUrl, dataDir).db
  try {
    const applied = await migrateToLatest(db)
    if (command === 'migrate') {
      out(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date')
      return 0
    }
    if (command === 'apps' && sub === 'create') {
      if (!values.name || !values.origin?.length) {
        err('apps create needs --name and at least one --origin')
        return 1
      }
      const { app, secret } = await createApp(db, {
        name: values.name,
        origins: values.origin,
        logoUrl: values['logo-url'],
        accentColor: values['accent-color'],
      })
      if (values.json)
        out(JSON.stringify({ id: app.id, secret, name: app.name, origins: app.allowedOrigins }))
      else {
        out(`App id:     ${app.id}`)
        out(`App secret: ${secret}`)
        out('The secret is shown only now; store it safely (only its hash is kept).')
      }
      return 0
    }
    if (command === 'apps' && sub === 'ensure') {
      if (!values.id || !values.name || !values.origin?.length) {
        err('apps ensure needs --id, --name and at least one --origin')
        return 1
      }
      const result = await ensureApp(db, {
        id: values.id,
        name: values.name,
        origins: values.origin,
        logoUrl: values['logo-url'],
        accentColor: values['accent-color'],
        ...(values['login-method']
          ? { settings: loginMethodSettings(values['login-method']) }
          : {}),
      })
      out(result.created ? `Created app ${result.app.id}` : `Updated app ${result.app.id}`)
      if (result.secret) out(`App secret: ${result.secret}`)
      return 0
    }
    if (command === 'apps' && sub === 'list') {
      const apps = await listApps(db)
      if (values.json)
        out(
          JSON.stringify(apps.map((a) => ({ id: a.id, name: a.name, origins: a.allowedOrigins }))),
        )
      else if (apps.length === 0) out('No apps yet: latchkey apps create --name … --origin …')
      else for (const a of apps) out(`${a.id}  ${a.name}  ${a.allowedOrigins.join(' ')}`)
      return 0
    }
    if (settingsCommand) {
      const [appId] = positionals
      if (!appId || positionals.length > 1) {
        err('apps settings needs an app id')
        return 1
      }
      if (values.set === undefined) {
        const app = await getAppById(db, appId)
        if (!app) {
          err(`No app ${appId}`)
          return 1
        }
        out(JSON.stringify(app.settings, null, 2))
        return 0
      }
      let patch: unknown
      try {
        patch = JSON.parse(values.set)
      } catch {
        err('--set needs a JSON object, e.g. \'{"require_users_accept_terms":true}\'')
        return 1
      }
      if (!patch || typeof patch !== 'object' || Array.isArray(patch)) {
        err('--set needs a JSON object')
        return 1
      }
      const settings = await updateAppSettings(db, appId, patch as Record<string, unknown>)
      out(JSON.stringify(settings, null, 2))
      out(`Updated the settings of app ${appId} (a running server applies them within 5 s)`)
      return 0
    }
    if (credentialsCommand) {
      const [action, appId, provider] = [argv[2], positionals[0], positionals[1]]
      if (!appId || !provider || !isCredentialProvider(provider) || positionals.length > 2) {
        err(
          'apps credentials set|delete needs an app id and a provider (google-drive, icloud, telegram, or an OAuth provider such as google or github)',
        )
        return 1
      }
      if (action === 'delete') {
        const deleted = await deleteAppProviderCredentials({ db }, appId, provider)
        out(
          deleted
            ? `Deleted the ${provider} credentials of app ${appId}`
            : `App ${appId} had no ${provider} credentials`,
        )
        return 0
      }
      if (action === 'set') {
        const credentials = credentialsFromFlags(provider, values, env)
        if (typeof credentials === 'string') {
          err(credentials)
          return 1
        }
        const secrets = new SecretBox(
          resolveMasterKey({ ...config, logger: consoleLogger }, dataDir),
        )
        await setAppProviderCredentials({ db, secrets }, appId, credentials)
        out(
          `Set the ${provider} credentials of app ${appId} (a running server applies them within 5 s)`,
        )
        return 0
      }
    }
    if (command === 'keys' && sub === 'rotate') {
      const secrets = new SecretBox(resolveMasterKey({ ...config, logger: consoleLogger }, dataDir))
      const kid = await rotateSigningKey(db, secrets, {
        retainRetiredMs: (config.sessions?.accessTokenTtlS ?? 3600) * 1000 + 5 * 60_000,
      })
      out(`New signing key ${kid}; the previous key stays published until its tokens expire.`)
      return 0
    }
    err(`Unknown command: ${argv.join(' ')}\n\n${USAGE}`)
    return 1
  } catch (error) {
    err(`Error: ${(error as Error).message}`)
    return 1
  } finally {
    if (!io.db) await db.destroy()
  }
}

/**
 * Credentials from the command's flags. Secrets come from an environment
 * variable named by a flag (`--client-secret-env VAR`), never from argv,
 * which other users of the machine can read. The CloudKit API token is not a
 * secret (CloudKit JS ships it to browsers), so `--api-token` is allowed too.
 * Returns an error message on a missing flag.
 */
function credentialsFromFlags(
  provider: ProviderCredentials['provider'],
  values: Record<string, string | boolean | string[] | undefined>,
  env: NodeJS.ProcessEnv,
): ProviderCredentials | string {
  const flag = (name: string) => {
    const value = values[name]
    return typeof value === 'string' && value !== '' ? value : undefined
  }
  const fromEnv = (name: string): string | undefined => {
    const variable = flag(name)
    return variable ? env[variable] || undefined : undefined
  }
  if (provider === 'google-drive') {
    const clientId = flag('client-id')
    const variable = flag('client-secret-env')
    const clientSecret = fromEnv('client-secret-env')
    if (!clientId || !variable)
      return 'apps credentials set … google-drive needs --client-id and --client-secret-env VAR'
    if (!clientSecret) return `The environment variable ${variable} is empty or not set`
    return { provider, client_id: clientId, client_secret: clientSecret }
  }
  if (provider === 'telegram') {
    const botName = flag('bot-name')
    const variable = flag('bot-token-env')
    const botToken = fromEnv('bot-token-env')
    if (!botName || !variable)
      return 'apps credentials set … telegram needs --bot-name and --bot-token-env VAR'
    if (!botToken) return `The environment variable ${variable} is empty or not set`
    return { provider, bot_name: botName, bot_token: botToken }
  }
  if (provider === 'turnstile') {
    // Cloudflare Turnstile (docs/captcha.md): the secret key siteverify is called with.
    const variable = flag('secret-key-env')
    const secretKey = fromEnv('secret-key-env')
    if (!variable) return 'apps credentials set … turnstile needs --secret-key-env VAR'
    if (!secretKey) return `The environment variable ${variable} is empty or not set`
    return { provider, secret_key: secretKey }
  }
  if (provider !== 'icloud') {
    // OAuth login providers (docs/login-oauth.md): the app's client at the provider.
    const clientId = flag('client-id')
    const variable = flag('client-secret-env')
    const clientSecret = fromEnv('client-secret-env')
    if (!clientId || !variable)
      return `apps credentials set … ${provider} needs --client-id and --client-secret-env VAR`
    if (!clientSecret) return `The environment variable ${variable} is empty or not set`
    return { provider, client_id: clientId, client_secret: clientSecret }
  }
  const containerId = flag('container-id')
  const environment = flag('environment')
  const apiToken = flag('api-token-env') ? fromEnv('api-token-env') : flag('api-token')
  if (!containerId || !environment || !(flag('api-token-env') || flag('api-token')))
    return 'apps credentials set … icloud needs --container-id, --environment and --api-token-env VAR (or --api-token)'
  if (!apiToken) return `The environment variable ${flag('api-token-env')} is empty or not set`
  if (environment !== 'development' && environment !== 'production')
    return '--environment must be development or production'
  return { provider, container_id: containerId, environment, api_token: apiToken }
}

const invokedDirectly = (() => {
  try {
    return (
      process.argv[1] !== undefined &&
      realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url))
    )
  } catch {
    return false
  }
})()

if (invokedDirectly) {
  runCli(process.argv.slice(2)).then(
    (code) => {
      if (code !== 0) process.exitCode = code
    },
    (error: Error) => {
      process.stderr.write(`Error: ${error.message}\n`)
      process.exitCode = 1
    },
  )
}
