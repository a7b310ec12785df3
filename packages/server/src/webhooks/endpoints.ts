import type { Kysely, Selectable } from 'kysely'
import type { KeyPurpose, SecretBox } from '../crypto/secrets.ts'
import type { Database } from '../db/types.ts'
import { newId } from '../ids.ts'
import { isWebhookEventType, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './events.ts'
import { newWebhookSecret } from './signature.ts'
import type { WebhookEndpointsTable } from './tables.ts'

/*
 * An app's webhook endpoint (docs: webhooks, "Set up"): its URL, the events
 * it receives, whether it is enabled, and its signing secret. The server
 * signs with the secret, so it is kept sealed (AES-256-GCM, HKDF purpose
 * webhook-secrets, associated data binding app, endpoint and column), never
 * hashed; it is shown once, when made. Nothing here logs a secret.
 */

/** HKDF purpose of the sealed secrets. */
export const WEBHOOK_SECRETS_PURPOSE: KeyPurpose = 'webhook-secrets'

/** How long the previous secret still signs after a rotation (receivers switch over meanwhile). */
export const PREVIOUS_SECRET_TTL_MS = 24 * 60 * 60_000

type Db = Kysely<Database>

/** What the store functions need. */
export interface WebhookStore {
  db: Db
  secrets: SecretBox
  now?: () => number
}

/** An endpoint as the CLI shows it: never its secret. */
export interface WebhookEndpoint {
  id: string
  appId: string
  url: string
  events: WebhookEventType[]
  enabled: boolean
  /** A rotation is in progress: the previous secret also signs until then (epoch ms). */
  previousSecretExpiresAt: number | null
  createdAt: number
  updatedAt: number
}

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]'])

/**
 * Refuses a URL deliveries must not go to: https only, except http to a
 * loopback host outside production (a receiver on the developer's machine).
 * No credentials in the URL (they would show wherever it is printed). Returns
 * the URL as it will be called, or throws an Error saying why.
 */
export function checkWebhookUrl(value: string, production: boolean): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new Error('The webhook URL is not a URL')
  }
  if (url.username || url.password) throw new Error('The webhook URL must not hold credentials')
  if (url.protocol === 'https:') return url.href
  if (url.protocol !== 'http:') throw new Error('The webhook URL must be https')
  if (production) throw new Error('The webhook URL must be https in production')
  if (!LOOPBACK_HOSTS.has(url.hostname))
    throw new Error('The webhook URL must be https (http only to localhost, in development)')
  return url.href
}

/** Refuses unknown event types; none given means every event. */
export function checkEvents(events: readonly string[] | undefined): WebhookEventType[] {
  if (!events || events.length === 0) return [...WEBHOOK_EVENT_TYPES]
  const unknown = events.filter((e) => !isWebhookEventType(e))
  if (unknown.length > 0)
    throw new Error(
      `Unknown webhook event ${unknown.join(', ')}: use ${WEBHOOK_EVENT_TYPES.join(', ')}`,
    )
  return WEBHOOK_EVENT_TYPES.filter((e) => events.includes(e))
}

/** Associated data of a sealed secret: the row (app, endpoint) and the column. */
const secretAad = (appId: string, endpointId: string, column: 'secret' | 'previous_secret') =>
  JSON.stringify(['webhook_endpoints', appId, endpointId, column])

const toEndpoint = (row: Selectable<WebhookEndpointsTable>): WebhookEndpoint => ({
  id: row.id,
  appId: row.app_id,
  url: row.url,
  events: checkEvents(JSON.parse(row.events) as string[]),
  enabled: row.enabled === 1,
  previousSecretExpiresAt:
    row.previous_secret_expires_at === null ? null : Number(row.previous_secret_expires_at),
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
})

export async function getWebhookEndpoint(db: Db, appId: string): Promise<WebhookEndpoint | null> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('app_id', '=', appId)
    .executeTakeFirst()
  return row ? toEndpoint(row) : null
}

export interface SetWebhookInput {
  url?: string
  /** Event types; omitted on create: every event. */
  events?: readonly string[]
  enabled?: boolean
  /** Refuse http URLs, loopback included. */
  production: boolean
}

export interface SetWebhookResult {
  endpoint: WebhookEndpoint
  /** The new signing secret, when the endpoint was just made: shown once. */
  secret?: string
}

/**
 * Creates the app's endpoint (a URL is needed, a new secret is made) or
 * updates the fields given. Takes effect on every node at once: workers
 * read the endpoint at each delivery.
 *
 * @example
 * const { secret } = await setWebhookEndpoint({ db, secrets }, appId, { url: 'https://api.example/hooks', production: true })
 */
export async function setWebhookEndpoint(
  store: WebhookStore,
  appId: string,
  input: SetWebhookInput,
): Promise<SetWebhookResult> {
  const now = (store.now ?? Date.now)()
  const url = input.url === undefined ? undefined : checkWebhookUrl(input.url, input.production)
  const events = input.events === undefined ? undefined : checkEvents(input.events)
  const existing = await getWebhookEndpoint(store.db, appId)
  if (existing) {
    await store.db
      .updateTable('webhook_endpoints')
      .set({
        ...(url ? { url } : {}),
        ...(events ? { events: JSON.stringify(events) } : {}),
        ...(input.enabled === undefined ? {} : { enabled: input.enabled ? 1 : 0 }),
        updated_at: now,
      })
      .where('id', '=', existing.id)
      .execute()
    return { endpoint: (await getWebhookEndpoint(store.db, appId)) as WebhookEndpoint }
  }
  if (!url) throw new Error('A new webhook needs a URL')
  const app = await store.db
    .selectFrom('apps')
    .select('id')
    .where('id', '=', appId)
    .executeTakeFirst()
  if (!app) throw new Error(`No app with id ${appId}`)
  const id = `ep_${newId()}`
  const secret = newWebhookSecret()
  await store.db
    .insertInto('webhook_endpoints')
    .values({
      id,
      app_id: appId,
      url,
      events: JSON.stringify(events ?? WEBHOOK_EVENT_TYPES),
      enabled: input.enabled === false ? 0 : 1,
      secret: store.secrets.encrypt(
        WEBHOOK_SECRETS_PURPOSE,
        secretAad(appId, id, 'secret'),
        secret,
      ),
      previous_secret: null,
      previous_secret_expires_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute()
  return { endpoint: (await getWebhookEndpoint(store.db, appId)) as WebhookEndpoint, secret }
}

/**
 * A new signing secret for the app's endpoint, returned once. The previous
 * one keeps signing too (each request then carries two signatures) for
 * `keepPreviousMs`, so receivers can switch without dropping events; 0 drops
 * it at once (a leaked secret).
 */
export async function rotateWebhookSecret(
  store: WebhookStore,
  appId: string,
  keepPreviousMs = PREVIOUS_SECRET_TTL_MS,
): Promise<string> {
  const now = (store.now ?? Date.now)()
  const row = await store.db
    .selectFrom('webhook_endpoints')
    .select(['id', 'secret'])
    .where('app_id', '=', appId)
    .executeTakeFirst()
  if (!row) throw new Error(`App ${appId} has no webhook`)
  const previous = unsealSecret(store.secrets, appId, row.id, 'secret', row.secret)
  const secret = newWebhookSecret()
  const seal = (column: 'secret' | 'previous_secret', value: string) =>
    store.secrets.encrypt(WEBHOOK_SECRETS_PURPOSE, secretAad(appId, row.id, column), value)
  const keep = keepPreviousMs > 0
  await store.db
    .updateTable('webhook_endpoints')
    .set({
      secret: seal('secret', secret),
      previous_secret: keep ? seal('previous_secret', previous) : null,
      previous_secret_expires_at: keep ? now + keepPreviousMs : null,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .execute()
  return secret
}

/** Deletes the app's endpoint and its undelivered events; true when there was one. */
export async function deleteWebhookEndpoint(db: Db, appId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('app_id', '=', appId)
    .executeTakeFirst()
  return Number(result.numDeletedRows) > 0
}

function unsealSecret(
  secrets: SecretBox,
  appId: string,
  endpointId: string,
  column: 'secret' | 'previous_secret',
  sealed: string,
): string {
  try {
    return secrets
      .decrypt(WEBHOOK_SECRETS_PURPOSE, secretAad(appId, endpointId, column), sealed)
      .toString('utf8')
  } catch {
    // Names the endpoint only, never the blob.
    throw new Error(`the webhook secret of endpoint ${endpointId} failed to unseal`)
  }
}

/**
 * The secrets a delivery is signed with, current first: the previous one
 * too while its rotation window runs.
 */
export function signingSecrets(
  secrets: SecretBox,
  row: Pick<
    Selectable<WebhookEndpointsTable>,
    'id' | 'app_id' | 'secret' | 'previous_secret' | 'previous_secret_expires_at'
  >,
  now: number,
): string[] {
  const current = unsealSecret(secrets, row.app_id, row.id, 'secret', row.secret)
  if (row.previous_secret === null || Number(row.previous_secret_expires_at ?? 0) <= now)
    return [current]
  return [
    current,
    unsealSecret(secrets, row.app_id, row.id, 'previous_secret', row.previous_secret),
  ]
}
