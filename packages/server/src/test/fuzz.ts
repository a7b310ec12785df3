import fc from 'fast-check'
import { z } from 'zod'

/**
 * Fuzzing helpers for the route fuzz tests (http/fuzz.*.test.ts): arbitraries
 * made from a route's zod schema (through its JSON Schema), salted with
 * hostile values at every level, and the fixed hostile bodies every route
 * gets.
 *
 * @example
 * const arb = schemaArbitrary(route.body)
 * await fc.assert(fc.asyncProperty(arb, async (body) => send(body)), { seed: FUZZ_SEED, numRuns: 15 })
 */

/** The seed of every fuzz run: fixed so a failure replays (`LATCHKEY_FUZZ_SEED` to try others). */
export const FUZZ_SEED = Number(process.env.LATCHKEY_FUZZ_SEED ?? 20_05)
/** Runs per route (`LATCHKEY_FUZZ_RUNS` for a longer local hunt). */
export const FUZZ_RUNS = Number(process.env.LATCHKEY_FUZZ_RUNS ?? 15)

interface JsonSchema {
  type?: string | string[]
  properties?: Record<string, JsonSchema>
  required?: string[]
  additionalProperties?: boolean | JsonSchema
  items?: JsonSchema
  minItems?: number
  maxItems?: number
  enum?: unknown[]
  const?: unknown
  anyOf?: JsonSchema[]
  oneOf?: JsonSchema[]
  allOf?: JsonSchema[]
  pattern?: string
  minLength?: number
  maxLength?: number
  minimum?: number
  maximum?: number
  exclusiveMinimum?: number
  exclusiveMaximum?: number
  format?: string
}

/** A JSON object whose own keys include `key` even when it is `__proto__`. */
export function withOwnKey(target: object, key: string, value: unknown): object {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  })
  return target
}

const nested = (depth: number): unknown => {
  let value: unknown = 'bottom'
  for (let i = 0; i < depth; i++) value = i % 2 ? { a: value } : [value]
  return value
}

/** Strings a validator or handler may choke on: control, bidi, surrogates, numbers, injection. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\u202Eevil\u202C',
  '\u200F\u05D0\u0627',
  '\uD800',
  '\uDFFF',
  'x\uDBFFy',
  '👩‍👩‍👧‍👦',
  'Z̸̢͓̈́a̷l̶g̵o̴',
  '\uFEFF',
  '\r\n\t',
  '%00%ff',
  '../../etc/passwd',
  "' OR 1=1 --",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, on purpose
  '${7*7}',
  '<script>alert(1)</script>',
  '0',
  '-1',
  '1.5',
  '1e309',
  'NaN',
  'Infinity',
  '0x1f',
  '9007199254740993',
  'true',
  'null',
  '[]',
  '{}',
  '__proto__',
  'constructor',
  'prototype',
  'x'.repeat(10_000),
  'é'.repeat(5_000),
]

export const HOSTILE_NUMBERS = [0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 2, Number.MIN_VALUE]

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty']

/** Any hostile JSON value: the strings and numbers above, wrong shapes, surrogates, deep nesting. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, [null], nested(40), {
      length: 1e9,
    }),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.string({
      unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
      maxLength: 4,
    }),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...PROTO_KEYS), fc.jsonValue({ maxDepth: 1 }))
      .map(([key, value]) => withOwnKey({}, key, value)),
  },
)

/** A pattern's strings, or any string when fast-check cannot read the pattern. */
function patternString(pattern: string): fc.Arbitrary<string> {
  try {
    return fc.stringMatching(new RegExp(pattern))
  } catch {
    return fc.string()
  }
}

/** Known good values for fields by name (the app's id, the user's wallet), so runs get past lookups. */
export type Hints = Record<string, unknown>

function conforming(s: JsonSchema, key: string, hints: Hints): fc.Arbitrary<unknown> {
  const arb = conformingToSchema(s, key, hints)
  return key in hints ? fc.oneof(fc.constant(hints[key]), arb) : arb
}

function conformingToSchema(s: JsonSchema, key: string, hints: Hints): fc.Arbitrary<unknown> {
  if ('const' in s) return fc.constant(s.const)
  if (s.enum) return fc.constantFrom(...s.enum)
  const union = s.anyOf ?? s.oneOf
  if (union) return fc.oneof(...union.map((u) => schemaNode(u, key, hints)))
  if (s.allOf?.length) return schemaNode(s.allOf[0] ?? {}, key, hints)
  if (Array.isArray(s.type))
    return fc.oneof(...s.type.map((type) => schemaNode({ ...s, type }, key, hints)))
  switch (s.type) {
    case 'string': {
      const maxLength = Math.min(s.maxLength ?? 64, 64)
      const minLength = Math.min(s.minLength ?? 0, maxLength)
      if (s.format === 'uri') return fc.webUrl()
      if (s.pattern) return patternString(s.pattern).map((v) => v.slice(0, s.maxLength))
      // Free-text fields named for an address get well-formed ones too, to pass the refinements.
      if (/email|address/i.test(key))
        return fc.oneof(fc.emailAddress(), fc.string({ minLength, maxLength }))
      return fc.string({ minLength, maxLength })
    }
    case 'integer': {
      const min = Math.max(s.minimum ?? (s.exclusiveMinimum ?? -1e9) + 1, -(2 ** 53) + 1)
      const max = Math.min(s.maximum ?? (s.exclusiveMaximum ?? 1e9) - 1, 2 ** 53 - 1)
      return fc.integer({ min: Math.ceil(min), max: Math.max(Math.ceil(min), Math.floor(max)) })
    }
    case 'number':
      return fc.double({ min: s.minimum ?? -1e12, max: s.maximum ?? 1e12, noNaN: true })
    case 'boolean':
      return fc.boolean()
    case 'null':
      return fc.constant(null)
    case 'array':
      return fc.array(schemaNode(s.items ?? {}, key, hints), {
        minLength: s.minItems ?? 0,
        maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 4, 4)),
      })
    case 'object': {
      const props = s.properties ?? {}
      const required = s.required ?? []
      const record = fc.record(
        Object.fromEntries(Object.entries(props).map(([k, v]) => [k, schemaNode(v, k, hints)])),
        { requiredKeys: required.filter((k) => k in props) },
      )
      const extra =
        typeof s.additionalProperties === 'object'
          ? fc.dictionary(
              fc.string({ maxLength: 12 }),
              schemaNode(s.additionalProperties, key, hints),
              {
                maxKeys: 4,
              },
            )
          : fc.constant({})
      return fc
        .tuple(record, extra, fc.option(fc.constantFrom(...PROTO_KEYS), { freq: 6 }), hostileValue)
        .map(([known, more, protoKey, value]) => {
          const out = { ...more, ...known }
          return protoKey === null ? out : withOwnKey(out, protoKey, value)
        })
    }
    default:
      return fc.jsonValue({ maxDepth: 2 })
  }
}

/** A node: mostly what the schema asks for, now and then a hostile value in its place. */
function schemaNode(s: JsonSchema, key: string, hints: Hints): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 8, arbitrary: conforming(s, key, hints) },
    { weight: 1, arbitrary: hostileValue },
  )
}

const jsonSchemaOf = (schema: z.ZodType): JsonSchema =>
  z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema

/** Bodies for a zod schema: shaped like it, with hostile values mixed in at every level. */
export function schemaArbitrary(schema: z.ZodType, hints: Hints = {}): fc.Arbitrary<unknown> {
  return schemaNode(jsonSchemaOf(schema), '', hints)
}

/** One body that follows the schema (no hostile values), for the fixed cases to corrupt. */
export function conformingSample(schema: z.ZodType, hints: Hints = {}): Record<string, unknown> {
  const [sample] = fc.sample(conforming(jsonSchemaOf(schema), '', hints), {
    seed: FUZZ_SEED,
    numRuns: 1,
  })
  return sample && typeof sample === 'object' ? (sample as Record<string, unknown>) : {}
}

/** Every UTF-8 byte as %XX (a lone surrogate becomes U+FFFD, as a browser would send it). */
export const percentEncode = (text = ''): string =>
  Array.from(Buffer.from(text, 'utf8'), (b) => `%${b.toString(16).padStart(2, '0')}`).join('')

/** Query strings for a zod schema: each known parameter as text, plus hostile ones. */
export function queryArbitrary(schema: z.ZodType, hints: Hints = {}): fc.Arbitrary<string> {
  const props = jsonSchemaOf(schema).properties ?? {}
  const param = fc.oneof(
    ...Object.entries(props).map(([k, s]) => fc.tuple(fc.constant(k), conforming(s, k, hints))),
    fc.tuple(fc.constantFrom(...Object.keys(props), ...PROTO_KEYS), hostileValue),
  )
  return fc
    .array(param, { maxLength: 4 })
    .map((pairs) =>
      pairs
        .map(
          ([k, v]) =>
            `${percentEncode(k)}=${percentEncode(typeof v === 'string' ? v : JSON.stringify(v))}`,
        )
        .join('&'),
    )
}
