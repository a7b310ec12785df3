import { APP_SECRET_COMMANDS } from '../apps/app-secrets-cli.ts'
import { ADMIN_COMMANDS } from '../console/admin-cli.ts'
import { DELEGATION_POLICY_COMMANDS } from '../delegation/cli.ts'
import { SMART_WALLET_COMMANDS } from '../smart-wallets/cli-commands.ts'
import { WEBHOOK_COMMANDS } from '../webhooks/cli-commands.ts'

/** One flag of a command, as `node:util` parseArgs takes it, with its help line. */
export interface FlagSpec {
  type: 'string' | 'boolean'
  multiple?: boolean
  short?: string
  /** Placeholder of the value in help, e.g. `URL`. */
  value?: string
  help: string
}

/** One command the CLI runs, e.g. `apps create`. */
export interface CommandSpec {
  /** The words after `latchkey`, e.g. `['apps', 'create']`. */
  path: readonly string[]
  /** Positional arguments, in order, e.g. `['ID', 'PROVIDER']`. */
  args?: readonly string[]
  /** What follows the command words in the usage line. */
  synopsis: string
  summary: string
  flags: Record<string, FlagSpec>
  /** Extra help paragraphs. */
  notes?: readonly string[]
  /** Environment variables of this command beyond the database ones (name → help). */
  env?: Record<string, string>
}

/** Flags every command takes: where the data is, whether to create it, help. */
export const COMMON_FLAGS: Record<string, FlagSpec> = {
  data: {
    type: 'string',
    value: 'DIR',
    help: 'data folder (SQLite database, dev master key); default: .data in the project root',
  },
  init: {
    type: 'boolean',
    help: 'create the data folder and the SQLite database if there is none',
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
}

export const DATABASE_ENV: Record<string, string> = {
  LATCHKEY_DATA_DIR: 'data folder when --data is not given',
  DATABASE_URL: 'postgres://… → use PostgreSQL instead of the SQLite file',
}

const MASTER_KEY_ENV: Record<string, string> = {
  LATCHKEY_MASTER_KEY: 'seals secrets at rest (default in development: DIR/master.key)',
}

export const DATA_NOTE =
  'Data: the SQLite file latchkey.sqlite in the data folder, which is --data, else ' +
  'LATCHKEY_DATA_DIR, else .data in the project root: the outermost folder at or above ' +
  'the current one whose package.json "workspaces" (or pnpm-workspace.yaml) covers it, ' +
  'else the nearest folder with a package.json, else the current folder. Every command ' +
  'prints the database it uses on stderr, and refuses to create one without --init.'

const name: FlagSpec = { type: 'string', value: 'N', help: "the app's name" }
const origin: FlagSpec = {
  type: 'string',
  multiple: true,
  value: 'URL',
  help: 'an allowed origin, e.g. https://app.example (repeat for several)',
}
const appLook: Record<string, FlagSpec> = {
  'logo-url': { type: 'string', value: 'URL', help: 'logo shown in the login modal' },
  'accent-color': { type: 'string', value: '#RRGGBB', help: 'accent colour of the login modal' },
  'login-method': {
    type: 'string',
    multiple: true,
    value: 'M',
    help: 'exactly these login methods on (email, sms, google, guest, wallet, passkey…; repeat)',
  },
}
const json: FlagSpec = { type: 'boolean', help: 'print JSON on stdout' }
const secretEnv = (what: string): FlagSpec => ({
  type: 'string',
  value: 'VAR',
  help: `environment variable holding the ${what}`,
})

/** Every command, in the order `latchkey --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
    path: ['serve'],
    synopsis: '',
    summary: 'start the server (pending migrations are applied first)',
    flags: {},
    env: {
      PORT: 'listen port (default 8787)',
      HOST: 'listen interface (default 127.0.0.1)',
      LATCHKEY_PUBLIC_URL: 'public base URL (default http://localhost:PORT)',
      ...MASTER_KEY_ENV,
      SMTP_URL: 'mail server (default: the dev mailbox)',
      'NODE_ENV=production': 'refuse to start without LATCHKEY_MASTER_KEY and SMTP_URL',
      LATCHKEY_SHUTDOWN_TIMEOUT_MS:
        'on SIGTERM/SIGINT, how long requests in flight may finish (default 10000)',
      '…': 'the rest: docs/server.md "Configuration"',
    },
  },
  {
    path: ['migrate'],
    synopsis: '',
    summary: 'apply pending database migrations (every command and serve also do)',
    flags: {},
  },
  {
    path: ['apps', 'create'],
    synopsis:
      '--name N --origin URL… [--logo-url URL] [--accent-color #RRGGBB] [--login-method M…] [--json]',
    summary: 'create an app; prints its id and its secret (shown once; only its hash is stored)',
    flags: { name, origin, ...appLook, json },
  },
  {
    path: ['apps', 'list'],
    synopsis: '[--json]',
    summary: 'list the apps',
    flags: { json },
  },
  {
    path: ['apps', 'ensure'],
    synopsis:
      '--id ID --name N --origin URL… [--logo-url URL] [--accent-color #RRGGBB] [--login-method M…]',
    summary: 'create or update an app with a fixed id (keeps its id and secret)',
    flags: {
      id: { type: 'string', value: 'ID', help: 'the app id (25 lowercase letters and digits)' },
      name,
      origin,
      ...appLook,
    },
  },
  {
    path: ['apps', 'settings'],
    args: ['ID'],
    synopsis: 'ID [--set JSON]',
    summary: "print the app's settings, or merge a JSON object into them",
    flags: {
      set: {
        type: 'string',
        value: 'JSON',
        help: `settings to merge, e.g. '{"require_users_accept_terms":true}' (null removes a key)`,
      },
    },
    notes: ['The settings: docs/server.md "App settings".'],
  },
  {
    path: ['apps', 'credentials', 'set'],
    args: ['ID', 'PROVIDER'],
    synopsis: 'ID PROVIDER [flags of the provider]',
    summary: "set the app's credentials for a provider (sealed at rest)",
    flags: {
      'client-id': {
        type: 'string',
        value: 'X',
        help: 'OAuth client id (google-drive, OAuth login)',
      },
      'client-secret-env': secretEnv('OAuth client secret'),
      'container-id': { type: 'string', value: 'iCloud.…', help: 'CloudKit container (icloud)' },
      environment: {
        type: 'string',
        value: 'ENV',
        help: 'CloudKit environment: development or production (icloud)',
      },
      'api-token-env': secretEnv('CloudKit API token'),
      'api-token': {
        type: 'string',
        value: 'T',
        help: 'the CloudKit API token itself (not secret)',
      },
      'bot-name': { type: 'string', value: 'NAME', help: 'Telegram bot username (telegram)' },
      'bot-token-env': secretEnv('Telegram bot token'),
      'secret-key-env': secretEnv('Turnstile or MoonPay secret key'),
      'api-key-name': {
        type: 'string',
        value: 'NAME',
        help: 'CDP secret API key id or name (coinbase-onramp)',
      },
      'api-key-secret-env': secretEnv('CDP API key secret'),
      'request-fid': { type: 'string', value: 'FID', help: "the app's fid (farcaster-signer)" },
      'custody-key-env': secretEnv('Farcaster custody private key or mnemonic of --request-fid'),
    },
    notes: [
      'Providers and their flags:\n' +
        '  google-drive                  --client-id X --client-secret-env VAR\n' +
        '  icloud                        --container-id iCloud.… --environment development|production\n' +
        '                                (--api-token-env VAR | --api-token T)\n' +
        '  telegram                      --bot-name NAME --bot-token-env VAR\n' +
        '  turnstile                     --secret-key-env VAR\n' +
        '  moonpay                       --secret-key-env VAR (docs/funding.md)\n' +
        '  coinbase-onramp               --api-key-name NAME --api-key-secret-env VAR\n' +
        '  farcaster-signer              --request-fid FID --custody-key-env VAR\n' +
        '  google, apple, github, …      --client-id X --client-secret-env VAR (docs/login-oauth.md)',
      'Secrets are read from the environment variable a flag names, never from the command ' +
        'line (other users of the machine can read it). A running server applies the change ' +
        'within 5 s.',
    ],
    env: MASTER_KEY_ENV,
  },
  {
    path: ['apps', 'credentials', 'delete'],
    args: ['ID', 'PROVIDER'],
    synopsis: 'ID PROVIDER',
    summary: "delete the app's credentials for a provider",
    flags: {},
  },
  ...APP_SECRET_COMMANDS,
  ...WEBHOOK_COMMANDS,
  ...DELEGATION_POLICY_COMMANDS,
  ...SMART_WALLET_COMMANDS,
  {
    path: ['purge'],
    synopsis: '[--json]',
    summary: 'delete expired codes, nonces and ended sessions now (a server does it every 10 min)',
    flags: { json },
    notes: [
      'Deletes only rows no request can use any more (docs/server.md "Purging expired rows"). ' +
        'Prints the rows deleted per table.',
    ],
    env: {
      LATCHKEY_SESSION_IDLE_MS: 'session idle lifetime, as the server uses it',
      LATCHKEY_ACCESS_TOKEN_TTL_S: 'access token lifetime, as the server uses it',
    },
  },
  {
    path: ['users', 'key-activity'],
    args: ['USER_ID'],
    synopsis: 'USER_ID [--json]',
    summary: "list the user's key releases (auth share, recovery material), newest first",
    flags: { json },
    notes: [
      'Prints the newest 100 releases recorded for the user (kept 90 days): time, kind, ' +
        'entropy id, IP, session and user agent (docs/wallets.md "Key activity").',
    ],
  },
  {
    path: ['users', 'delete'],
    args: ['USER_ID'],
    synopsis: 'USER_ID [--yes]',
    summary: 'delete a user, their wallets and linked accounts; ends every session of theirs',
    flags: {
      yes: { type: 'boolean', help: 'delete (without it: print what would be deleted, exit 1)' },
    },
    notes: [
      'Deletes what the user deletes from the app (docs/security.md "Data retention and access ' +
        'changes"): linked accounts, sessions and refresh tokens, embedded-wallet secrets (the ' +
        "server's shares and recovery material), key-release records. Their access tokens are " +
        'refused at once. Without --yes it only prints the counts. It cannot be undone.',
    ],
  },
  {
    path: ['users', 'mfa-reset'],
    args: ['USER_ID'],
    synopsis: 'USER_ID [--yes]',
    summary: "remove a user's MFA methods (a lost authenticator); ends every session of theirs",
    flags: {
      yes: { type: 'boolean', help: 'reset (without it: print what would be removed, exit 1)' },
    },
    notes: [
      'For a user who lost their only MFA factor (docs/mfa.md "Losing a factor"). It removes the ' +
        "user's MFA factors, verifications and attempt count, and revokes their sessions: the " +
        'account is then used without MFA, after a fresh login, until the user enrolls again. ' +
        'Whoever can log in as the user can then reach the wallet with the login alone, so check ' +
        'who asks, out of band, before running it.',
    ],
  },
  {
    path: ['backup'],
    args: ['FILE'],
    synopsis: 'FILE',
    summary: 'copy the SQLite database to FILE, safely while the server runs',
    flags: {},
    notes: [
      'An online backup (SQLite backup API): FILE is a consistent copy, replaced only once ' +
        'complete. To restore, stop the server and put FILE in place of latchkey.sqlite; keep ' +
        'the master key too. PostgreSQL: use pg_dump (docs/operations.md).',
    ],
  },
  {
    path: ['keys', 'rotate'],
    synopsis: '',
    summary: 'new signing key (the old one stays in the JWKS until its tokens expire)',
    flags: {},
    env: MASTER_KEY_ENV,
  },
  ...ADMIN_COMMANDS,
]

/** What the words of a command line name: a command, a group of commands (`apps`), or nothing known. */
export interface FoundCommand {
  /** The words that name a known command or group (empty: none). */
  path: string[]
  /** The command, when `path` names one rather than a group. */
  command?: CommandSpec
  /** The arguments after `path`. */
  rest: string[]
}

export const samePath = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((word, i) => word === b[i])

/** True when `path` is a group: the start of longer command paths (`apps`, `apps credentials`). */
const isGroup = (path: readonly string[]) =>
  COMMANDS.some((c) => c.path.length > path.length && samePath(c.path.slice(0, path.length), path))

/**
 * The longest run of leading words that names a command or a group.
 *
 * @example
 * findCommand(['apps', 'list', '--json']) // { path: ['apps', 'list'], command: …, rest: ['--json'] }
 */
export function findCommand(argv: readonly string[]): FoundCommand {
  const path: string[] = []
  for (const word of argv) {
    const next = [...path, word]
    const command = COMMANDS.find((c) => samePath(c.path, next))
    if (command) return { path: next, command, rest: argv.slice(next.length) }
    if (!isGroup(next)) break
    path.push(word)
  }
  return { path, rest: argv.slice(path.length) }
}
