import { realpathSync, statSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type ParseArgsConfig, parseArgs } from 'node:util'
import {
  CODE_RESEND_COOLDOWN_MS,
  DEFAULT_LOGIN_METHOD_SWITCHES,
} from '@latchkey/protocol/constants'
import type { Kysely } from 'kysely'
import {
  deleteAppProviderCredentials,
  isCredentialProvider,
  setAppProviderCredentials,
} from './apps/credentials.ts'
import { type AppSettings, createApp, ensureApp, listApps } from './apps/service.ts'
import { appSettingsCommand } from './cli/app-settings.ts'
import { backupCommand } from './cli/backup.ts'
import { COMMON_FLAGS, type FlagSpec, findCommand } from './cli/commands.ts'
import { credentialsFromFlags } from './cli/credential-flags.ts'
import { type DataLocation, resolveDataLocation } from './cli/data-location.ts'
import { deleteUserCommand } from './cli/delete-user.ts'
import { helpText } from './cli/help.ts'
import { printKeyActivity } from './cli/key-activity.ts'
import { mfaResetCommand } from './cli/mfa-reset.ts'
import { moduleCommand } from './cli/module-commands.ts'
import { consoleLogger, loadConfigFromEnv } from './config.ts'
import { SecretBox } from './crypto/secrets.ts'
import { connectDatabase } from './db/connect.ts'
import { migrateToLatest } from './db/migrate.ts'
import type { Database } from './db/types.ts'
import { createJsonLogger } from './logging/json-logger.ts'
import { purgeExpired } from './maintenance/purge.ts'
import { defaultSessionOptions, resolveMasterKey } from './server.ts'
import { rotateSigningKey } from './sessions/keys.ts'
import { startServer } from './start.ts'

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
  /** The folder the command runs from: the project root and relative paths are found from it (default `process.cwd()`). */
  cwd?: string
  /** Environment variables (default `process.env`). */
  env?: NodeJS.ProcessEnv
  /** Writes one line of output, the command's answer (default: stdout). */
  out?: (line: string) => void
  /** Writes one line of diagnostics: errors and the database in use (default: stderr). */
  err?: (line: string) => void
  /** Use this database instead of the configured one (tests); nothing is looked for or printed. */
  db?: Kysely<Database>
}

/** The flags as parseArgs takes them (it refuses keys it does not know the value of). */
const parseArgsOptions = (flags: Record<string, FlagSpec>): ParseArgsConfig['options'] =>
  Object.fromEntries(
    Object.entries(flags).map(([flag, { type, multiple, short }]) => [
      flag,
      { type, ...(multiple ? { multiple } : {}), ...(short ? { short } : {}) },
    ]),
  )

/** Where the data folder came from, for the message that no database is there. */
function describeSource(location: DataLocation): string {
  const { source } = location
  if (source.kind === 'flag') return 'given by --data'
  if (source.kind === 'env') return 'given by LATCHKEY_DATA_DIR'
  if (source.root.reason === 'cwd')
    return 'the default: .data in the current folder (no package.json in it or above it)'
  const how =
    source.root.reason === 'workspaces'
      ? 'the outermost workspace root'
      : 'the nearest folder with a package.json'
  const from = source.root.dir === source.cwd ? '' : ` above ${source.cwd}`
  return `the default: .data in the project root ${source.root.dir} (${how}${from})`
}

/**
 * Prints which database the command uses and says whether it may go on: an
 * SQLite database is only created with `--init`, so a command run from the
 * wrong folder never starts an empty one there.
 */
function announceDatabase(
  location: DataLocation,
  init: boolean,
  err: (line: string) => void,
): boolean {
  if (location.ignoredDatabaseUrl)
    err('DATABASE_URL is not a postgres:// URL: it is ignored, the SQLite database is used')
  const { database } = location
  if (database.kind === 'postgres') {
    err(`Using PostgreSQL database ${database.display}`)
    return true
  }
  if (database.exists) {
    err(`Using SQLite database ${database.file}`)
    return true
  }
  if (init) {
    err(`Using SQLite database ${database.file} (new: created by --init)`)
    return true
  }
  err(
    [
      `No Latchkey database at ${database.file}.`,
      `The data folder ${location.dataDir} is ${describeSource(location)}.`,
      'To create a new database there, run the command again with --init.',
      'To use an existing one, pass --data DIR or set LATCHKEY_DATA_DIR to its folder',
      '(or DATABASE_URL=postgres://… for PostgreSQL).',
    ].join('\n'),
  )
  return false
}

/**
 * Runs one CLI command and returns the exit code. `--help` on any command
 * prints its usage without opening a database.
 *
 * @example
 * await runCli(['apps', 'create', '--name', 'Demo', '--origin', 'http://localhost:5173'])
 * await runCli(['apps', 'list', '--json'], { cwd: '/srv/app', env: { LATCHKEY_DATA_DIR: '/var/lib/latchkey' } })
 */
export async function runCli(argv: string[], io: CliIo = {}): Promise<number> {
  const cwd = io.cwd ?? process.cwd()
  const env = io.env ?? process.env
  const out = io.out ?? ((line: string) => process.stdout.write(`${line}\n`))
  const err = io.err ?? ((line: string) => process.stderr.write(`${line}\n`))

  // `latchkey help apps create` is `latchkey apps create --help`.
  const found = findCommand(argv[0] === 'help' ? [...argv.slice(1), '--help'] : argv)
  const name = ['latchkey', ...found.path].join(' ')
  const [next] = found.rest
  if (!found.command && next !== undefined && !next.startsWith('-')) {
    err(`Unknown command: ${name} ${next}\n\n${helpText(found.path)}`)
    return 1
  }
  if (found.rest.includes('--help') || found.rest.includes('-h')) {
    out(helpText(found.path))
    return 0
  }
  const { command } = found
  if (!command) {
    const missing = found.path.length ? `${name} needs a subcommand` : 'latchkey needs a command'
    err(`${missing}\n\n${helpText(found.path)}`)
    return 1
  }

  let values: Record<string, unknown>
  let positionals: string[]
  try {
    ;({ values, positionals } = parseArgs({
      args: found.rest,
      options: parseArgsOptions({ ...command.flags, ...COMMON_FLAGS }),
      strict: true,
      allowPositionals: command.args !== undefined,
    }))
  } catch (error) {
    const hint = command.args ? `\nAn argument that starts with '-' goes after '--'.` : ''
    err(`${name}: ${(error as Error).message}${hint}\nRun "${name} --help" for its options.`)
    return 1
  }
  if (positionals.length !== (command.args?.length ?? 0)) {
    err(`Usage: ${name} ${command.synopsis}\nRun "${name} --help" for more.`)
    return 1
  }
  const flag = (key: string) => {
    const value = values[key]
    return typeof value === 'string' ? value : undefined
  }
  const list = (key: string) => {
    const value = values[key]
    return Array.isArray(value)
      ? value.filter((v): v is string => typeof v === 'string')
      : undefined
  }

  const data = flag('data')
  if (data === '') {
    err('--data needs a folder')
    return 1
  }
  const location = resolveDataLocation({ cwd, env, data })
  if (statSync(location.dataDir, { throwIfNoEntry: false })?.isFile()) {
    err(`${location.dataDir} is a file: name the folder that holds latchkey.sqlite`)
    return 1
  }
  if (!io.db && !announceDatabase(location, values.init === true, err)) return 1
  const dataDir = location.dataDir
  let config: ReturnType<typeof loadConfigFromEnv>
  try {
    config = loadConfigFromEnv(env)
  } catch (error) {
    err(`Error: ${(error as Error).message}`)
    return 1
  }
  const key = command.path.join(' ')

  if (key === 'serve') {
    // JSON lines on stdout, one per request and event (docs/operations.md "Logs").
    const logger = createJsonLogger({ level: config.logLevel })
    const running = await startServer({ ...config, dataDir, logger })
    out(
      `Latchkey listening on ${running.url} (public URL ${running.server.services.config.publicUrl})`,
    )
    if (running.server.services.config.devMailbox)
      out(`Dev mailbox: ${running.server.services.config.publicUrl}/dev/mailbox`)
    // SIGTERM/SIGINT: drain (docs/operations.md), then exit 0; a second signal ends it at once.
    const stop = (signal: string) => {
      err(`${signal}: draining requests in flight, then closing the database`)
      running.close().then(
        () => process.exit(0),
        (error: Error) => {
          err(`Error while shutting down: ${error.message}`)
          process.exit(1)
        },
      )
    }
    process.once('SIGINT', stop)
    process.once('SIGTERM', stop)
    return 0
  }

  if (key === 'backup') {
    const [file = ''] = positionals
    return await backupCommand({ location, file, cwd, out, err })
  }

  const db = io.db ?? connectDatabase(config.databaseUrl, dataDir).db
  try {
    const applied = await migrateToLatest(db)
    if (key === 'migrate') {
      out(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date')
      return 0
    }
    if (key === 'apps create') {
      const [appName, origins, methods] = [flag('name'), list('origin'), list('login-method')]
      if (!appName || !origins?.length) {
        err('apps create needs --name and at least one --origin')
        return 1
      }
      const { app, secret } = await createApp(db, {
        name: appName,
        origins,
        logoUrl: flag('logo-url'),
        accentColor: flag('accent-color'),
        ...(methods ? { settings: loginMethodSettings(methods) } : {}),
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
    if (key === 'apps ensure') {
      const [id, appName, origins, methods] = [
        flag('id'),
        flag('name'),
        list('origin'),
        list('login-method'),
      ]
      if (!id || !appName || !origins?.length) {
        err('apps ensure needs --id, --name and at least one --origin')
        return 1
      }
      const result = await ensureApp(db, {
        id,
        name: appName,
        origins,
        logoUrl: flag('logo-url'),
        accentColor: flag('accent-color'),
        ...(methods ? { settings: loginMethodSettings(methods) } : {}),
      })
      out(result.created ? `Created app ${result.app.id}` : `Updated app ${result.app.id}`)
      if (result.secret) out(`App secret: ${result.secret}`)
      return 0
    }
    if (key === 'apps list') {
      const apps = await listApps(db)
      if (values.json)
        out(
          JSON.stringify(apps.map((a) => ({ id: a.id, name: a.name, origins: a.allowedOrigins }))),
        )
      else if (apps.length === 0) out('No apps yet: latchkey apps create --name … --origin …')
      else for (const a of apps) out(`${a.id}  ${a.name}  ${a.allowedOrigins.join(' ')}`)
      return 0
    }
    const input = { db, key, positionals, values, env, config, dataDir, out, err }
    const owned = await moduleCommand(input)
    if (owned !== undefined) return owned
    if (key === 'apps settings') {
      const [appId = ''] = positionals
      return await appSettingsCommand({ db, appId, set: flag('set'), out, err })
    }
    if (key === 'apps credentials set' || key === 'apps credentials delete') {
      const [appId = '', provider = ''] = positionals
      if (!isCredentialProvider(provider)) {
        err(
          `Unknown provider ${provider}: use google-drive, icloud, telegram, turnstile, moonpay, coinbase-onramp, farcaster-signer, or an OAuth provider such as google or github`,
        )
        return 1
      }
      if (key === 'apps credentials delete') {
        const deleted = await deleteAppProviderCredentials({ db }, appId, provider)
        out(
          deleted
            ? `Deleted the ${provider} credentials of app ${appId}`
            : `App ${appId} had no ${provider} credentials`,
        )
        return 0
      }
      const credentials = credentialsFromFlags(provider, values, env)
      if (typeof credentials === 'string') {
        err(credentials)
        return 1
      }
      const secrets = new SecretBox(resolveMasterKey({ ...config, logger: consoleLogger }, dataDir))
      await setAppProviderCredentials({ db, secrets }, appId, credentials)
      out(
        `Set the ${provider} credentials of app ${appId} (a running server applies them within 5 s)`,
      )
      return 0
    }
    if (key === 'purge') {
      const counts = await purgeExpired(db, Date.now(), {
        codeResendCooldownMs: config.rateLimits?.codeResendCooldownMs ?? CODE_RESEND_COOLDOWN_MS,
        sessions: { ...defaultSessionOptions, ...config.sessions },
      })
      if (values.json) out(JSON.stringify(counts))
      else {
        const deleted = Object.entries(counts).filter(([, n]) => n > 0)
        if (deleted.length === 0) out('Nothing to purge')
        for (const [table, n] of deleted) out(`${table}: ${n} deleted`)
      }
      return 0
    }
    if (key === 'users key-activity') {
      const [userId = ''] = positionals
      await printKeyActivity({ db, userId, json: values.json === true, out })
      return 0
    }
    if (key === 'users delete') {
      const [userId = ''] = positionals
      return await deleteUserCommand({ db, userId, yes: values.yes === true, out, err })
    }
    if (key === 'users mfa-reset') {
      const [userId = ''] = positionals
      return await mfaResetCommand({ db, userId, yes: values.yes === true, out, err })
    }
    if (key === 'keys rotate') {
      const secrets = new SecretBox(resolveMasterKey({ ...config, logger: consoleLogger }, dataDir))
      const kid = await rotateSigningKey(db, secrets, {
        retainRetiredMs: (config.sessions?.accessTokenTtlS ?? 3600) * 1000 + 5 * 60_000,
      })
      out(`New signing key ${kid}; the previous key stays published until its tokens expire.`)
      return 0
    }
    throw new Error(`latchkey ${key} has no handler`)
  } catch (error) {
    err(`Error: ${(error as Error).message}`)
    return 1
  } finally {
    if (!io.db) await db.destroy()
  }
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
