import { constraints, type JsonSchema, schemaText } from './json-schema-text.ts'

/** The parts of an OpenAPI 3.1 document (as `buildOpenApi` writes it) this page reads. */
export interface OpenApiDocument {
  info?: { title?: string; version?: string }
  paths: Record<string, Record<string, Operation>>
}

interface Operation {
  summary?: string
  description?: string
  tags?: string[]
  operationId?: string
  parameters?: Parameter[]
  security?: Array<Record<string, unknown>>
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> }
  responses?: Record<
    string,
    { description?: string; content?: Record<string, { schema?: JsonSchema }> }
  >
}

interface Parameter {
  name: string
  in: string
  required?: boolean
  description?: string
  schema?: JsonSchema
}

/** One route of the document: what the page lists and the docs-site test looks for. */
export interface Route {
  method: string
  path: string
  tag: string
  operation: Operation
}

const TAG_TITLES: Record<string, string> = {
  sms: 'SMS and WhatsApp',
  oauth: 'OAuth',
  siwe: 'SIWE (Sign-In With Ethereum)',
  siws: 'SIWS (Sign-In With Solana)',
  'custom-jwt': 'Custom JWT',
  'cross-app': 'Cross-app',
  mfa: 'MFA',
  dev: 'Development only',
}

const AUTH: Record<string, string> = {
  bearer: "the user's access token (`Authorization: Bearer …`)",
  app: 'the app secret (`Authorization: Basic base64(appId:appSecret)`, docs: [App backends](../server-api.md))',
}

export const tagTitle = (tag: string) =>
  TAG_TITLES[tag] ?? `${tag[0]?.toUpperCase() ?? ''}${tag.slice(1).replace(/-/g, ' ')}`

/** Every route of the document, in the document's order. */
export function listRoutes(doc: OpenApiDocument): Route[] {
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations).map(([method, operation]) => ({
      method,
      path,
      tag: operation.tags?.[0] ?? 'other',
      operation,
    })),
  )
}

/** The heading a route gets: `POST /api/v1/passwordless/init` (the test looks for this text). */
export const routeTitle = (route: Pick<Route, 'method' | 'path'>) =>
  `${route.method.toUpperCase()} ${route.path}`

/**
 * The HTTP API reference page: one section per tag, one entry per route with
 * its summary, authentication, parameters, request body and success response;
 * the error body, the same for every route, once at the top.
 *
 * @example
 * const markdown = httpApiPage(await fetchOpenApiDocument())
 */
export function httpApiPage(doc: OpenApiDocument): string {
  const routes = listRoutes(doc)
  const tags = [...new Set(routes.map((route) => route.tag))]
  const errorSchema = routes
    .map((route) => route.operation.responses?.default?.content?.['application/json']?.schema)
    .find(Boolean)
  const out = [
    '---',
    'title: HTTP API reference',
    'outline: [2, 2]',
    '---',
    '',
    '# HTTP API reference',
    '',
    `${doc.info?.title ?? 'The API'} ${doc.info?.version ?? ''}: every route of the OpenAPI 3.1 document`,
    'the server serves at `GET /api/v1/openapi.json`, generated when the docs site is built (from',
    "the same route definitions that serve the requests, on a development server: the routes tagged 'dev'",
    'exist only while the dev mailbox is on). Types are written as TypeScript; `?` marks an optional field.',
    'How to call the API from a browser and from a backend: [Client guide](../client.md),',
    '[Latchkey server](../server.md), [App backends](../server-api.md).',
    '',
    tags.map((tag) => `[${tagTitle(tag)}](#tag-${tag.replace(/\W+/g, '-')})`).join(' · '),
    '',
    '## Errors {#errors}',
    '',
    'Every route answers a failure with a JSON body `{ code, message }` and the HTTP status of the',
    'code ([Client guide](../client.md) lists how the client surfaces them):',
    '',
    fence(schemaText(errorSchema)),
  ]
  // Long bodies shared by several routes (the login response) are written once.
  const seen = new Map<string, string>()
  for (const tag of tags) {
    out.push('', `## ${tagTitle(tag)} {#tag-${tag.replace(/\W+/g, '-')}}`)
    for (const route of routes.filter((r) => r.tag === tag))
      out.push('', ...routeSection(route, seen))
  }
  return `${out.join('\n')}\n`
}

function routeSection(route: Route, seen: Map<string, string>): string[] {
  const { method, path, operation } = route
  const id = operation.operationId ?? `${method}-${path.replace(/\W+/g, '-')}`
  const schemaBlock = (what: string, schema: JsonSchema) => {
    const text = schemaText(schema)
    const first = seen.get(text)
    if (first) return `The same as the ${first}.`
    if (text.split('\n').length > 12)
      seen.set(text, `${what} of [\`${routeTitle(route)}\`](#${id})`)
    return fence(text)
  }
  const out = [`### \`${routeTitle({ method, path })}\` {#${id}}`, '']
  if (operation.summary) out.push(`${operation.summary}.`.replace(/\.\.$/, '.'), '')
  if (operation.description) out.push(operation.description, '')
  const auth = (operation.security ?? []).flatMap((scheme) => Object.keys(scheme))
  out.push(
    `**Authentication:** ${auth.length ? auth.map((a) => AUTH[a] ?? a).join(' or ') : 'none'}.`,
    '',
  )
  const params = operation.parameters ?? []
  if (params.length > 0) {
    out.push('| parameter | in | type | required | notes |', '|---|---|---|---|---|')
    for (const p of params)
      out.push(
        `| \`${p.name}\` | ${p.in} | ${cell(`\`${schemaText(p.schema)}\``)} | ${p.required ? 'yes' : 'no'} | ${cell([p.description, p.schema ? constraints(p.schema) : ''].filter(Boolean).join('; '))} |`,
      )
    out.push('')
  }
  const body = operation.requestBody?.content?.['application/json']?.schema
  if (body) out.push('**Request body:**', '', schemaBlock('request body', body), '')
  for (const [status, response] of Object.entries(operation.responses ?? {})) {
    if (status === 'default') continue
    const schema = response.content?.['application/json']?.schema
    const block = schema ? schemaBlock(`response ${status}`, schema) : '(no body)'
    out.push(`**Response ${status}:**`, '', block, '')
  }
  out.push('Errors: [`{ code, message }`](#errors).')
  return out
}

const fence = (text: string) => `\`\`\`ts\n${text}\n\`\`\``

/** Table cells hold no pipes or newlines of their own. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')
