import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'

/** The repository root (this file is site/reference/typescript-docs.ts). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..')

/** One property of an interface, with the properties of its own object type, nested. */
export interface PropertyDoc {
  /** Dotted from the interface: `embeddedWallets.createOnLogin`; `[]` marks an array's items. */
  path: string
  optional: boolean
  /** The type as the source writes it: `Array<LoginMethod | CrossAppLoginMethod>`. */
  type: string
  /** The literals behind a named union type (`EmbeddedWalletMode` → `'…' | '…'`), else null. */
  values: string | null
  /** The JSDoc text, with `@default`/`@example`/`@deprecated` tags appended. */
  doc: string
  children: PropertyDoc[]
  /** A sibling of the same object type, whose properties `children` would repeat. */
  sameAs?: string
}

export interface InterfaceDoc {
  name: string
  /** Repository-relative file that declares it. */
  file: string
  doc: string
  properties: PropertyDoc[]
}

/** Nested object types are described this deep; deeper ones keep their type name only. */
const MAX_DEPTH = 4

/**
 * A TypeScript program over the given repository files with the workspace's
 * own compiler options (tsconfig.base.json: workspace packages resolve to
 * their sources through the `latchkey-source` condition).
 */
export function createRepoProgram(files: string[]): ts.Program {
  const configPath = resolve(REPO_ROOT, 'tsconfig.base.json')
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile)
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'))
  const { options } = ts.parseJsonConfigFileContent(config, ts.sys, REPO_ROOT)
  return ts.createProgram(
    files.map((file) => resolve(REPO_ROOT, file)),
    { ...options, noEmit: true },
  )
}

/**
 * Reads an exported interface's properties, their types and JSDoc, and the
 * properties of the repository's own object types they use, nested.
 *
 * @example
 * const program = createRepoProgram(['packages/react/src/config.ts'])
 * describeInterface(program, 'packages/react/src/config.ts', 'LatchkeyConfig').properties[0].path // 'appearance'
 */
export function describeInterface(program: ts.Program, file: string, name: string): InterfaceDoc {
  const checker = program.getTypeChecker()
  const source = program.getSourceFile(resolve(REPO_ROOT, file))
  if (!source) throw new Error(`${file} is not part of the program`)
  const declaration = source.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === name,
  )
  if (!declaration) throw new Error(`${file} declares no interface ${name}`)
  const symbol = checker.getSymbolAtLocation(declaration.name)
  if (!symbol) throw new Error(`no symbol for ${name}`)
  const type = checker.getDeclaredTypeOfSymbol(symbol)
  return {
    name,
    file,
    doc: docOf(symbol, checker),
    properties: describeProperties(checker.getPropertiesOfType(type), '', 1, checker),
  }
}

/** Siblings of one object type (nine `RateLimitRule`s) spell its properties out once. */
function describeProperties(
  symbols: ts.Symbol[],
  prefix: string,
  depth: number,
  checker: ts.TypeChecker,
): PropertyDoc[] {
  const expanded = new Map<ts.Type, string>()
  return symbols.map((symbol) => {
    const nested = nestedObjectType(
      checker.getNonNullableType(checker.getTypeOfSymbol(symbol)),
      checker,
    )
    const first = nested ? expanded.get(nested.type) : undefined
    if (nested && !first) expanded.set(nested.type, symbol.name)
    const doc = describeProperty(symbol, prefix, depth, checker, !first)
    return first ? { ...doc, sameAs: first } : doc
  })
}

function describeProperty(
  symbol: ts.Symbol,
  prefix: string,
  depth: number,
  checker: ts.TypeChecker,
  expand: boolean,
): PropertyDoc {
  const declaration = symbol.valueDeclaration ?? symbol.declarations?.[0]
  const type = checker.getTypeOfSymbol(symbol)
  const written =
    declaration && (ts.isPropertySignature(declaration) || ts.isPropertyDeclaration(declaration))
      ? declaration.type?.getText()
      : undefined
  const path = `${prefix}${symbol.name}`
  const nested = nestedObjectType(checker.getNonNullableType(type), checker)
  // An inline object type with comments in it reads better as its list of properties.
  const inlineWithComments = nested && written && /\/\*|\/\//.test(written)
  const typeText = inlineWithComments
    ? '{ … }'
    : (written ?? checker.typeToString(checker.getNonNullableType(type))).replace(/\s*\n\s*/g, ' ')
  const children =
    nested && expand && depth < MAX_DEPTH
      ? describeProperties(
          checker.getPropertiesOfType(nested.type),
          `${path}${nested.array ? '[]' : ''}.`,
          depth + 1,
          checker,
        )
      : []
  return {
    path,
    optional: (symbol.flags & ts.SymbolFlags.Optional) !== 0,
    type: typeText,
    values: literalValues(checker.getNonNullableType(type), typeText, checker),
    doc: docOf(symbol, checker),
    children,
  }
}

/** The object type whose properties a reader needs spelled out: one of the repository's own. */
function nestedObjectType(
  type: ts.Type,
  checker: ts.TypeChecker,
): { type: ts.Type; array: boolean } | null {
  if (checker.isArrayType(type)) {
    const [item] = checker.getTypeArguments(type as ts.TypeReference)
    const nested = item ? nestedObjectType(item, checker) : null
    return nested && !nested.array ? { type: nested.type, array: true } : null
  }
  if (type.isUnion() || !(type.flags & ts.TypeFlags.Object)) return null
  if (checker.getSignaturesOfType(type, ts.SignatureKind.Call).length > 0) return null
  const properties = checker.getPropertiesOfType(type)
  if (properties.length === 0) return null
  const ours = properties.every((property) =>
    (property.declarations ?? []).every((declaration) => {
      const fileName = declaration.getSourceFile().fileName
      return fileName.startsWith(REPO_ROOT) && !fileName.includes('/node_modules/')
    }),
  )
  const methodsOnly = properties.every((property) => property.flags & ts.SymbolFlags.Method)
  return ours && !methodsOnly ? { type, array: false } : null
}

/** `'a' | 'b'` when a named type stands for a union of literals the reader cannot see. */
function literalValues(type: ts.Type, written: string, checker: ts.TypeChecker): string | null {
  if (!type.isUnion()) return null
  const literal = (t: ts.Type) =>
    t.isLiteral() || (t.flags & (ts.TypeFlags.BooleanLiteral | ts.TypeFlags.TemplateLiteral)) !== 0
  if (!type.types.every(literal)) return null
  // Member by member: the union itself prints as its alias's name.
  const text = type.types
    .map((member) => checker.typeToString(member).replace(/"/g, "'"))
    .join(' | ')
  const boolean = text === 'false | true' || text === 'true | false'
  return text === written.replace(/"/g, "'") || boolean ? null : text
}

function docOf(symbol: ts.Symbol, checker: ts.TypeChecker): string {
  const text = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim()
  const tags = symbol
    .getJsDocTags(checker)
    .filter((tag) => ['default', 'defaultValue', 'example', 'deprecated'].includes(tag.name))
    .map((tag) => {
      const body = ts.displayPartsToString(tag.text).trim()
      if (tag.name === 'example') return `Example:\n\n\`\`\`ts\n${body}\n\`\`\``
      return tag.name === 'deprecated' ? `Deprecated. ${body}` : `Default: ${body}`
    })
  return [text, ...tags].filter(Boolean).join('\n\n')
}
