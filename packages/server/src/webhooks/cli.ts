import type { Kysely } from 'kysely'
import { consoleLogger, type LatchkeyServerOptions } from '../config.ts'
import { SecretBox } from '../crypto/secrets.ts'
import type { Database } from '../db/types.ts'
import { resolveMasterKey } from '../server.ts'
import {
  deleteWebhookEndpoint,
  getWebhookEndpoint,
  rotateWebhookSecret,
  setWebhookEndpoint,
  type WebhookEndpoint,
} from './endpoints.ts'

export interface WebhookCommandParameters {
  db: Kysely<Database>
  /** The command: `apps webhook set|show|deliveries|rotate-secret|delete`. */
  key: string
  positionals: string[]
  /** The parsed flags. */
  values: Readonly<Record<string, unknown>>
  /** The configuration from the environment: `production` (https only), the master key. */
  config: LatchkeyServerOptions
  dataDir: string
  out: (line: string) => void
  err: (line: string) => void
}

const SECRET_NOTE =
  'The secret is shown only now; give it to your backend (verifyWebhook) and store it safely.'

const describe = (endpoint: WebhookEndpoint) => ({
  id: endpoint.id,
  url: endpoint.url,
  events: endpoint.events,
  enabled: endpoint.enabled,
  previous_secret_expires_at:
    endpoint.previousSecretExpiresAt === null
      ? null
      : new Date(endpoint.previousSecretExpiresAt).toISOString(),
})

/**
 * `latchkey apps webhook set|show|deliveries|rotate-secret|delete ID`
 * (webhooks/cli-commands.ts). Returns the exit code; an invalid value throws
 * an Error the CLI prints. Secrets are printed only by set (a new webhook)
 * and rotate-secret, on stdout.
 *
 * @example
 * await webhookCommand({ db, key: 'apps webhook set', positionals: [appId], values: { url: 'https://api.example/hooks' }, config, dataDir, out, err })
 */
export async function webhookCommand(parameters: WebhookCommandParameters): Promise<number> {
  const { db, values, config, out, err } = parameters
  const action = parameters.key.split(' ')[2] ?? ''
  const production = config.production === true
  // The master-key box, made only by the commands that seal.
  const secrets = () =>
    new SecretBox(resolveMasterKey({ ...config, logger: consoleLogger }, parameters.dataDir))
  const [appId = ''] = parameters.positionals
  const asJson = values.json === true
  const endpoint = await getWebhookEndpoint(db, appId)
  if (action !== 'set' && !endpoint) {
    err(`App ${appId} has no webhook: latchkey apps webhook set ${appId} --url URL`)
    return 1
  }
  if (action === 'set') {
    if (values.enable === true && values.disable === true) {
      err('Give --enable or --disable, not both')
      return 1
    }
    const url = typeof values.url === 'string' ? values.url : undefined
    const events = Array.isArray(values.event) ? (values.event as string[]) : undefined
    const enabled = values.enable === true ? true : values.disable === true ? false : undefined
    const store = { db, secrets: secrets() }
    const { endpoint: set, secret } = await setWebhookEndpoint(store, appId, {
      url,
      events,
      enabled,
      production,
    })
    if (asJson) out(JSON.stringify({ ...describe(set), ...(secret ? { secret } : {}) }))
    else {
      out(`${endpoint ? 'Updated' : 'Created'} the webhook of app ${appId}: ${set.url}`)
      out(`Events:  ${set.events.join(' ')}${set.enabled ? '' : ' (disabled)'}`)
      if (secret) out(`Signing secret: ${secret}\n${SECRET_NOTE}`)
    }
    return 0
  }
  if (action === 'rotate-secret') {
    const keep = values['drop-previous'] === true ? 0 : undefined
    const secret = await rotateWebhookSecret({ db, secrets: secrets() }, appId, keep)
    if (asJson) out(JSON.stringify({ secret }))
    else {
      out(`Signing secret: ${secret}\n${SECRET_NOTE}`)
      out(
        keep === 0
          ? 'The previous secret no longer signs.'
          : 'For 24 h requests carry a signature with the previous secret too.',
      )
    }
    return 0
  }
  if (action === 'delete') {
    await deleteWebhookEndpoint(db, appId)
    out(`Deleted the webhook of app ${appId}`)
    return 0
  }
  const id = (endpoint as WebhookEndpoint).id
  if (action === 'show') {
    const counts = await db
      .selectFrom('webhook_outbox')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('endpoint_id', '=', id)
      .groupBy('status')
      .execute()
    const deliveries = Object.fromEntries(counts.map((c) => [c.status, Number(c.n)]))
    if (asJson) out(JSON.stringify({ ...describe(endpoint as WebhookEndpoint), deliveries }))
    else {
      const shown = describe(endpoint as WebhookEndpoint)
      out(`Webhook ${shown.id}: ${shown.url} (${shown.enabled ? 'enabled' : 'disabled'})`)
      out(`Events:     ${shown.events.join(' ')}`)
      if (shown.previous_secret_expires_at)
        out(`Previous secret signs until ${shown.previous_secret_expires_at}`)
      out(`Deliveries: ${JSON.stringify(deliveries)}`)
    }
    return 0
  }
  // deliveries
  const rows = await db
    .selectFrom('webhook_outbox')
    .select([
      'id',
      'event_type',
      'status',
      'attempts',
      'next_attempt_at',
      'last_status',
      'last_error',
      'created_at',
    ])
    .where('endpoint_id', '=', id)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(20)
    .execute()
  if (asJson) out(JSON.stringify(rows))
  else if (rows.length === 0) out('No deliveries yet')
  else
    for (const r of rows)
      out(
        `${new Date(Number(r.created_at)).toISOString()}  ${r.id}  ${r.event_type}  ${r.status}  ` +
          `attempts ${r.attempts}${r.last_error ? `  last: ${r.last_error}` : ''}` +
          (r.status === 'pending'
            ? `  next ${new Date(Number(r.next_attempt_at)).toISOString()}`
            : ''),
      )
  return 0
}
