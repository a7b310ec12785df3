import {
  createRepoProgram,
  describeInterface,
  type InterfaceDoc,
  type PropertyDoc,
} from './typescript-docs.ts'

/** The interfaces the configuration reference documents, read from their sources. */
export const CONFIG_SOURCES = {
  client: { file: 'packages/react/src/config.ts', name: 'LatchkeyConfig' },
  server: { file: 'packages/server/src/config.ts', name: 'LatchkeyServerOptions' },
} as const

/** Heading anchors: `#client-appearance`, `#server-databaseUrl`. */
export const configAnchor = (part: keyof typeof CONFIG_SOURCES, key: string) => `${part}-${key}`

/**
 * The configuration reference page: every property of `LatchkeyConfig` (what
 * `LatchkeyProvider` takes) and of `LatchkeyServerOptions` (what
 * `createLatchkeyServer` takes), with type and JSDoc, read from the sources
 * with the TypeScript compiler API; nested object types are spelled out.
 *
 * @example
 * const markdown = configurationPage()
 */
export function configurationPage(): string {
  const program = createRepoProgram([CONFIG_SOURCES.client.file, CONFIG_SOURCES.server.file])
  const client = describeInterface(program, CONFIG_SOURCES.client.file, CONFIG_SOURCES.client.name)
  const server = describeInterface(program, CONFIG_SOURCES.server.file, CONFIG_SOURCES.server.name)
  return [
    '---',
    'title: Configuration reference',
    'outline: [2, 3]',
    '---',
    '',
    '# Configuration reference',
    '',
    'Generated from the TypeScript sources when the docs site is built: every property, its type',
    'as the source writes it, and its JSDoc. `?` marks an optional property.',
    '',
    `## \`LatchkeyProvider\` config (\`${client.name}\`) {#client}`,
    '',
    intro(client),
    'How the provider uses it: [Client guide](../client.md).',
    '',
    ...client.properties.flatMap((p) => topLevel(p, configAnchor('client', p.path))),
    `## Server options (\`${server.name}\`) {#server}`,
    '',
    intro(server),
    '`latchkey serve` reads them from environment variables: [Latchkey server](../server.md).',
    '',
    ...server.properties.flatMap((p) => topLevel(p, configAnchor('server', p.path))),
  ].join('\n')
}

const intro = (doc: InterfaceDoc) => `${prose(doc.doc)}\nSource: \`${doc.file}\`.`

function topLevel(property: PropertyDoc, anchor: string): string[] {
  const part = anchor.slice(0, anchor.indexOf('-'))
  const sameAs = property.sameAs
    ? [`Its properties are listed under [\`${property.sameAs}\`](#${part}-${property.sameAs}).`, '']
    : []
  return [
    `### \`${property.path}\` {#${anchor}}`,
    '',
    signature(property),
    '',
    ...(property.doc ? [prose(property.doc), ''] : []),
    ...sameAs,
    ...property.children.flatMap((child) => nested(child, 0)),
    ...(property.children.length ? [''] : []),
  ]
}

/** Nested properties as a list, indented by depth, each with its type and JSDoc. */
function nested(property: PropertyDoc, depth: number): string[] {
  const pad = '  '.repeat(depth)
  const text = [
    property.doc,
    property.sameAs ? `The same properties as \`${property.sameAs}\`.` : '',
  ]
    .filter(Boolean)
    .join(' ')
  const doc = text
    ? `: ${prose(text)
        .replace(/\n(?!\n)/g, ' ')
        .replace(/\n\n/g, `\n\n${pad}  `)}`
    : ''
  return [
    `${pad}- ${signature(property)}${doc}`,
    ...property.children.flatMap((child) => nested(child, depth + 1)),
  ]
}

function signature(property: PropertyDoc): string {
  const name = property.path.split('.').at(-1) ?? property.path
  const type = code(`${name}${property.optional ? '?' : ''}: ${property.type}`)
  return property.values ? `${type} (${code(property.values)})` : type
}

/** A code span that holds any text (backticks inside get a longer fence). */
function code(text: string): string {
  const fence = '`'.repeat(
    (text.match(/`+/g) ?? ['']).reduce((a, b) => Math.max(a, b.length), 0) + 1,
  )
  return fence.length > 1 ? `${fence} ${text} ${fence}` : `\`${text}\``
}

/**
 * JSDoc prose as markdown the Vue template compiler accepts: `<`, `>` and
 * `{{` outside code spans and fences are escaped.
 */
function prose(text: string): string {
  return text
    .split(/(```[\s\S]*?```|`[^`\n]*`)/)
    .map((part, i) => (i % 2 === 1 ? part : plainProse(part)))
    .join('')
}

/** `{@link x}` becomes `x` in code; `docs/x.md` a link to that page (the build checks it exists). */
const plainProse = (text: string) =>
  text
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\{@link\s+([^}\s]+)\s*\}/g, '`$1`')
    .replace(/\{\{/g, '&#123;&#123;')
    .replace(/\bdocs\/([\w-]+)\.md\b/g, '[docs/$1.md](../$1.md)')
