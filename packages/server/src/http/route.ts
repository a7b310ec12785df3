import { type AuthResponse, errorBodySchema, Header } from '@latchkey/protocol'
import type { Context, Hono } from 'hono'
import { z } from 'zod'
import { authenticateAppRequest } from '../apps/app-secrets-auth.ts'
import type { AppRecord } from '../apps/service.ts'
import { verifyCaptcha } from '../captcha/verify.ts'
import { ApiError } from '../errors.ts'
import { loginMethodOfRoute } from '../metrics/registry.ts'
import { requireFreshMfa } from '../mfa/verifications.ts'
import { bindEnclaveKeyToLogin, readEnclaveKeyHeader } from '../sessions/enclave-key.ts'
import { authenticateRequest } from '../sessions/service.ts'
import { clientIp } from './client-ip.ts'
import type { AuthContext, HonoEnv, Services } from './context.ts'
import { authenticateEnclaveRequest } from './enclave-auth.ts'
import { readBody } from './read-body.ts'

/** Largest JSON body a route accepts, in bytes (counted while it streams: read-body.ts). */
export const MAX_BODY_BYTES = 64 * 1024

export interface HandlerInput<B, Q> {
  c: Context<HonoEnv>
  services: Services
  body: B
  query: Q
  /** The app of the request (routes with `app: false` must not read it). */
  app: AppRecord
  /** The caller (only on `auth: 'user'` and `auth: 'enclave'` routes). */
  auth: AuthContext
}

/**
 * One endpoint: path, validation, auth and handler in one object, from
 * which both the Hono handler and the OpenAPI document are made.
 *
 * @example
 * export const meRoute = defineRoute({
 *   method: 'get', path: routes.usersMe, summary: 'The current user', tags: ['users'],
 *   auth: 'user', response: usersMeResponseSchema,
 *   handler: async ({ services, auth, app }) => ({ user: …, identity_token: … }),
 * })
 */
export interface RouteDefinition<
  // biome-ignore lint/suspicious/noExplicitAny: a registry holds routes of every body type
  B extends z.ZodType | undefined = any,
  // biome-ignore lint/suspicious/noExplicitAny: a registry holds routes of every query type
  Q extends z.ZodType | undefined = any,
  R extends z.ZodType = z.ZodType,
> {
  method: 'get' | 'post'
  /** Hono path (`:param` segments). */
  path: string
  summary: string
  tags: string[]
  /**
   * `user`: a bearer access token of a live session. `enclave` (the key
   * routes): that, from this server's own origin only, with a proof signed by
   * the session's enclave key (http/enclave-auth.ts). `app`: an app backend,
   * with its app secret (apps/app-secrets-auth.ts), never from a browser.
   */
  auth: 'none' | 'user' | 'enclave' | 'app'
  /**
   * With `auth: 'enclave'`: a user who has an enabled MFA factor must have
   * verified MFA in this very session within the last 15 minutes, else 403
   * MFA_REQUIRED before the body is read (mfa/verifications.ts, docs/mfa.md).
   * The key routes that release or replace key material, and factor changes.
   * A function of the body guards only the requests it returns true for
   * (`mfa/sms/init`: sending a code to a new phone starts an enrollment,
   * sending one to the enrolled phone is how a verification starts); the
   * check then runs once the body is validated, still before the handler.
   */
  mfa?: boolean | ((body: B extends z.ZodType ? z.output<B> : undefined) => boolean)
  /**
   * The handler creates a session (a login): a `latchkey-enclave-key` header
   * is checked before it runs, and the new session is bound to that key
   * before the answer is sent (sessions/enclave-key.ts).
   */
  startsSession?: boolean
  /** Needs an app (header or :app_id), checked against the Origin (default true). */
  app?: boolean
  body?: B
  query?: Q
  response: R
  /** Status of a success (default 200). */
  status?: 200 | 201
  /**
   * A login-start route: where its body carries the captcha token. When the
   * app enables captcha the token is verified (and spent) after validation
   * and before the handler runs (docs/captcha.md, security bar 49). `false`
   * marks a request that needs none because the handler authenticates its
   * caller instead (an OAuth link start by a signed-in user).
   */
  captcha?: (body: B extends z.ZodType ? z.output<B> : undefined) => string | undefined | false
  handler: (
    input: HandlerInput<
      B extends z.ZodType ? z.output<B> : undefined,
      Q extends z.ZodType ? z.output<Q> : undefined
    >,
  ) => Promise<z.input<R>>
}

export function defineRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  R extends z.ZodType = z.ZodType,
>(definition: RouteDefinition<B, Q, R>): RouteDefinition<B, Q, R> {
  return definition
}

const issuesOf = (error: z.ZodError) =>
  error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }))

/** A field's name in plain words: `new_phone_number`, `newPhoneNumber` → 'new phone number'. */
const plainWords = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .toLowerCase()

/**
 * A refused payload's message, in words a user can read, naming the first
 * field at fault ('The phone number is missing.'): spec 01 §8 has clients
 * show a 400's message when they do not know its code. The technical issues
 * stay in `details`.
 */
function validationMessage(error: z.ZodError, input: unknown, what: string): string {
  const issue = error.issues[0]
  const name = issue?.path.filter((p): p is string => typeof p === 'string').pop()
  if (!issue || !name) return `The ${what} is not valid.`
  let value: unknown = input
  for (const key of issue.path) value = (value as Record<PropertyKey, unknown> | undefined)?.[key]
  return `The ${plainWords(name)} is ${value === undefined ? 'missing' : 'not valid'}.`
}

/**
 * Where the first string or key of a parsed body or query holds U+0000
 * (`['payload', 'note']`), or undefined. No field of the protocol carries one,
 * and PostgreSQL text cannot store it ("invalid byte sequence for encoding
 * UTF8: 0x00", a 500 before this check). Iterative, with paths built only for
 * a hit: a 64 KiB body nests 30 000 levels deep.
 */
function nulCharacterPath(value: unknown): Array<string | number> | undefined {
  type Node = { value: unknown; key?: string | number; parent?: Node }
  const pathOf = (node: Node) => {
    const path: Array<string | number> = []
    for (let n: Node | undefined = node; n?.key !== undefined; n = n.parent) path.unshift(n.key)
    return path
  }
  const stack: Node[] = [{ value }]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (typeof node.value === 'string') {
      if (node.value.includes('\u0000')) return pathOf(node)
    } else if (typeof node.value === 'object' && node.value !== null) {
      const isArray = Array.isArray(node.value)
      for (const [key, child] of Object.entries(node.value)) {
        const next = { value: child, key: isArray ? Number(key) : key, parent: node }
        if (key.includes('\u0000')) return pathOf(next)
        stack.push(next)
      }
    }
  }
  return undefined
}

/** Refuses a body or query holding U+0000 (nulCharacterPath), naming the field like validation does. */
function refuseNulCharacter(input: unknown, what: string): void {
  const path = nulCharacterPath(input)
  if (!path) return
  const name = path.filter((p): p is string => typeof p === 'string').pop()
  throw new ApiError(
    'INVALID_PAYLOAD',
    name ? `The ${plainWords(name)} is not valid.` : `The ${what} is not valid.`,
    [{ path: path.join('.'), message: 'Holds a NUL character' }],
  )
}

async function readJson(c: Context<HonoEnv>): Promise<unknown> {
  const text = new TextDecoder().decode(await readBody(c, MAX_BODY_BYTES))
  if (text.trim() === '') return {}
  try {
    return JSON.parse(text)
  } catch {
    throw new ApiError('INVALID_PAYLOAD', 'The request body is not valid JSON')
  }
}

/**
 * Finds the app of a request (`appId`, else the :app_id segment, else the
 * header) and refuses an Origin the app does not allow.
 */
export async function resolveApp(
  c: Context<HonoEnv>,
  services: Services,
  explicitAppId?: string,
): Promise<AppRecord> {
  const appId = explicitAppId ?? c.req.param('app_id') ?? c.req.header(Header.appId)
  if (!appId) throw new ApiError('MISSING_APP_ID', `The ${Header.appId} header is required`)
  const app = await services.apps.get(appId)
  if (!app) throw new ApiError('APP_NOT_FOUND')
  c.set('app', app)
  const origin = c.req.header('origin')
  // Server-to-server calls carry no Origin; browsers always send one cross-origin.
  // A same-origin call comes from this server's own pages (the enclave), whose
  // origins come from configuration: the request's URL is built from its Host
  // header, which a DNS-rebound page sets to its own name.
  if (
    origin !== undefined &&
    !app.allowedOrigins.includes(origin) &&
    !services.config.ownOrigins.includes(origin)
  )
    throw new ApiError('ORIGIN_NOT_ALLOWED')
  return app
}

export function bearerToken(c: Context<HonoEnv>): string | undefined {
  const header = c.req.header('authorization')
  const match = header?.match(/^Bearer\s+(\S+)$/i)
  return match?.[1]
}

/** Registers each route on the Hono app. */
export function registerRoutes(
  hono: Hono<HonoEnv>,
  definitions: RouteDefinition[],
  services: Services,
): void {
  for (const def of definitions) {
    // The MFA check needs the session the enclave's proof vouches for.
    if (def.mfa && def.auth !== 'enclave')
      throw new Error(`${def.path}: an MFA-protected route must be an enclave route`)
    // Counted once the login answered (latchkey_logins_total, metrics/registry.ts).
    const loginMethod = def.startsSession ? loginMethodOfRoute(def.path) : undefined
    hono.on(def.method.toUpperCase(), def.path, async (c) => {
      const app =
        def.auth === 'app'
          ? await authenticateAppRequest(c, services)
          : def.app === false
            ? (undefined as unknown as AppRecord)
            : await resolveApp(c, services)
      let auth = undefined as unknown as AuthContext
      if (def.auth === 'user') auth = await authenticateRequest(services, bearerToken(c), app.id)
      if (def.auth === 'enclave')
        auth = await authenticateEnclaveRequest(c, services, bearerToken(c), app.id)
      if (def.mfa === true) await requireFreshMfa(services, auth)
      // Malformed: 400 before any session is made.
      const enclaveKey = def.startsSession ? readEnclaveKeyHeader(c) : undefined
      let body: unknown
      if (def.body) {
        const input = await readJson(c)
        refuseNulCharacter(input, 'request')
        const parsed = def.body.safeParse(input)
        if (!parsed.success)
          throw new ApiError(
            'INVALID_PAYLOAD',
            validationMessage(parsed.error, input, 'request'),
            issuesOf(parsed.error),
          )
        body = parsed.data
      }
      let query: unknown
      if (def.query) {
        const input = c.req.query()
        refuseNulCharacter(input, 'query')
        const parsed = def.query.safeParse(input)
        if (!parsed.success)
          throw new ApiError(
            'INVALID_PAYLOAD',
            validationMessage(parsed.error, input, 'query'),
            issuesOf(parsed.error),
          )
        query = parsed.data
      }
      if (typeof def.mfa === 'function' && def.mfa(body as never))
        await requireFreshMfa(services, auth)
      const captchaToken = def.captcha && def.app !== false ? def.captcha(body as never) : false
      if (captchaToken !== false)
        await verifyCaptcha(
          services,
          app,
          captchaToken,
          clientIp(c, services),
          c.req.header('origin'),
        )
      const result = await def.handler({ c, services, body, query, app, auth })
      if (enclaveKey) await bindEnclaveKeyToLogin(services, result as AuthResponse, enclaveKey)
      if (loginMethod) services.metrics.login(loginMethod)
      return c.json(result as object, def.status ?? 200)
    })
  }
}

const ENCLAVE_PROOF_PARAMETER = {
  name: Header.enclaveProof,
  in: 'header',
  required: true,
  description:
    "The enclave's proof for this request (RFC 9449 DPoP shape, ES256), signed by the key the session was bound to at login",
  schema: { type: 'string' },
}

const ENCLAVE_KEY_PARAMETER = {
  name: Header.enclaveKey,
  in: 'header',
  required: false,
  description:
    "RFC 7638 SHA-256 thumbprint of the enclave's device key: the new session is bound to it",
  schema: { type: 'string', pattern: '^[A-Za-z0-9_-]{43}$' },
}

const toJsonSchema = (schema: z.ZodType, io: 'input' | 'output') =>
  z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' })

/** An OpenAPI 3.1 document generated from the same definitions that serve the routes. */
export function buildOpenApi(
  definitions: RouteDefinition[],
  info: { serverUrl: string; version: string },
): object {
  const paths: Record<string, Record<string, unknown>> = {}
  for (const def of definitions) {
    const params: object[] = []
    const path = def.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
      params.push({ name, in: 'path', required: true, schema: { type: 'string' } })
      return `{${name}}`
    })
    if (def.app !== false && !def.path.includes(':app_id'))
      params.push({
        name: Header.appId,
        in: 'header',
        required: true,
        schema: { type: 'string', minLength: 25, maxLength: 25 },
      })
    if (def.query) {
      const schema = toJsonSchema(def.query, 'input') as {
        properties?: Record<string, object>
        required?: string[]
      }
      for (const [name, prop] of Object.entries(schema.properties ?? {}))
        params.push({
          name,
          in: 'query',
          required: schema.required?.includes(name) ?? false,
          schema: prop,
        })
    }
    if (def.auth === 'enclave') params.push(ENCLAVE_PROOF_PARAMETER)
    if (def.startsSession) params.push(ENCLAVE_KEY_PARAMETER)
    const operation: Record<string, unknown> = {
      summary: def.summary,
      tags: def.tags,
      operationId: `${def.method}${path.replace(/[^A-Za-z0-9]+(.)?/g, (_, ch: string | undefined) => (ch ? ch.toUpperCase() : ''))}`,
      parameters: params,
      responses: {
        [String(def.status ?? 200)]: {
          description: 'Success',
          content: { 'application/json': { schema: toJsonSchema(def.response, 'output') } },
        },
        default: {
          description: 'Error: `{ code, message }`, status from the error code',
          content: { 'application/json': { schema: toJsonSchema(errorBodySchema, 'output') } },
        },
      },
    }
    if (def.body)
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: toJsonSchema(def.body, 'input') } },
      }
    if (def.auth !== 'none')
      operation.security = [def.auth === 'app' ? { app: [] } : { bearer: [] }]
    const fresh =
      'a verification of this session younger than 15 minutes (403 MFA_REQUIRED otherwise).'
    if (def.mfa === true) operation.description = `When the user has MFA, needs ${fresh}`
    else if (def.mfa)
      operation.description = `When the user has MFA, the requests the summary names need ${fresh}`
    paths[path] ??= {}
    ;(paths[path] as Record<string, unknown>)[def.method] = operation
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Latchkey API', version: info.version },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        // App backends: base64(appId:appSecret), with the latchkey-app-id header (docs/server-api.md).
        app: { type: 'http', scheme: 'basic' },
      },
    },
  }
}
