/**
 * JSON Schema (draft 2020-12, as zod writes it for the OpenAPI document) as a
 * TypeScript-like type a reader takes in at a glance: `{ email: string;
 * code?: string }`, unions with `|`, literal enums, and the constraints a
 * client must meet (length, range, pattern, format) as trailing comments.
 *
 * @example
 * schemaText({ type: 'object', properties: { email: { type: 'string', format: 'email' } }, required: ['email'] })
 * // {
 * //   email: string // email
 * // }
 */
export interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  propertyNames?: JsonSchema
  items?: JsonSchema
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  enum?: unknown[]
  const?: unknown
  default?: unknown
  description?: string
  format?: string
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  minItems?: number
  maxItems?: number
}

const INDENT = '  '

/** The schema's constraints as a short comment (`1–64 chars`, `≥ 0`, `email`, default). */
export function constraints(schema: JsonSchema): string {
  const out: string[] = []
  if (schema.format) out.push(schema.format)
  const range = (low: number | undefined, high: number | undefined, unit: string) => {
    // zod writes `z.number().int()` as the safe-integer range: no news to a reader.
    const min = low === Number.MIN_SAFE_INTEGER ? undefined : low
    const max = high === Number.MAX_SAFE_INTEGER ? undefined : high
    if (min !== undefined && max !== undefined)
      out.push(min === max ? `${min} ${unit}` : `${min}–${max} ${unit}`)
    else if (min !== undefined) out.push(`≥ ${min} ${unit}`)
    else if (max !== undefined) out.push(`≤ ${max} ${unit}`)
  }
  range(schema.minLength, schema.maxLength, 'chars')
  range(schema.minItems, schema.maxItems, 'items')
  range(schema.minimum, schema.maximum, '')
  if (schema.exclusiveMinimum !== undefined) out.push(`> ${schema.exclusiveMinimum}`)
  if (schema.exclusiveMaximum !== undefined) out.push(`< ${schema.exclusiveMaximum}`)
  if (schema.pattern) out.push(`/${schema.pattern}/`)
  if (schema.default !== undefined) out.push(`default ${JSON.stringify(schema.default)}`)
  if (schema.description) out.push(schema.description)
  return out.map((part) => part.trim()).join('; ')
}

/** The type of `schema`, written from `depth` levels of indentation. */
export function schemaText(schema: JsonSchema | boolean | undefined, depth = 0): string {
  if (schema === undefined || schema === true) return 'unknown'
  if (schema === false) return 'never'
  if (schema.const !== undefined) return JSON.stringify(schema.const)
  if (schema.enum) return literalsText(schema.enum, depth)
  const variants = schema.anyOf ?? schema.oneOf
  if (variants) return unionText(variants, depth)
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : []
  if (types.length > 1)
    return types.map((type) => schemaText({ ...schema, type }, depth)).join(' | ')
  switch (types[0]) {
    case 'object':
      return objectText(schema, depth)
    case 'array': {
      const item = schemaText(schema.items, depth)
      return /^[\w"]+$/.test(item) ? `${item}[]` : `Array<${item}>`
    }
    case 'integer':
      return 'number'
    case undefined:
      return schema.properties ? objectText(schema, depth) : 'unknown'
    default:
      return types[0]
  }
}

/** A long list of literals wraps, a few per line, each line introduced by `|`. */
function literalsText(values: unknown[], depth: number): string {
  const parts = values.map((value) => JSON.stringify(value))
  if (parts.join(' | ').length <= 80) return parts.join(' | ')
  const pad = INDENT.repeat(depth + 1)
  const lines: string[] = []
  for (const part of parts) {
    const last = lines.length - 1
    if (last >= 0 && (lines[last] as string).length + part.length < 90)
      lines[last] = `${lines[last]} | ${part}`
    else lines.push(`${pad}| ${part}`)
  }
  return `\n${lines.join('\n')}`
}

function unionText(variants: JsonSchema[], depth: number): string {
  // Variants that differ only in constraints (two string patterns) read as one type.
  const parts = [...new Set(variants.map((variant) => schemaText(variant, depth + 1)))]
  if (parts.every((part) => !part.includes('\n')) && parts.join(' | ').length <= 80)
    return parts.join(' | ')
  // Object variants: one per line, each introduced by `|`.
  const pad = INDENT.repeat(depth + 1)
  return parts.map((part) => (part.startsWith('\n') ? part : `\n${pad}| ${part}`)).join('')
}

function objectText(schema: JsonSchema, depth: number): string {
  const entries = Object.entries(schema.properties ?? {})
  const extra = schema.additionalProperties
  if (entries.length === 0) {
    if (extra && extra !== true) return `Record<${keyText(schema)}, ${schemaText(extra, depth)}>`
    return extra === false ? '{}' : `Record<${keyText(schema)}, unknown>`
  }
  const pad = INDENT.repeat(depth + 1)
  const required = new Set(schema.required ?? [])
  const lines = entries.map(([name, property]) => {
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)
    const note = constraints(property).replace(/\s*\n\s*/g, ' ')
    const type = schemaText(property, depth + 1)
    const separator = type.startsWith('\n') ? ':' : ': '
    const line = `${pad}${key}${required.has(name) ? '' : '?'}${separator}${type}`
    if (!note) return line
    // A comment goes after a one-line type and above one that spans lines.
    return type.includes('\n') ? `${pad}// ${note}\n${line}` : `${line} // ${note}`
  })
  return `{\n${lines.join('\n')}\n${INDENT.repeat(depth)}}`
}

const keyText = (schema: JsonSchema) =>
  schema.propertyNames ? schemaText(schema.propertyNames) : 'string'
