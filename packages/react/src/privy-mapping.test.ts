import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as main from './index.ts'
import * as solana from './solana.ts'

// docs/migrating-from-privy.md maps Privy's exports and configuration keys to
// ours. Its tables must name only what exists: every name in a "Latchkey"
// column is an export of the entry in "From" (for `hook().member`, a member
// of what the hook returns), every "Latchkey key" resolves in LatchkeyConfig,
// every hook a note names exists, and no row leaves out the mapping.

const root = join(dirname(fileURLToPath(import.meta.url)), '../../..')
const read = (path: string) => readFileSync(join(root, path), 'utf8')
const doc = read('docs/migrating-from-privy.md')

/** The entries a row's "From" may name: source file and, for ours in this package, the module. */
const ENTRIES: Record<string, { file: string; module: object | null }> = {
  '@latchkey/react': { file: 'packages/react/src/index.ts', module: main },
  '@latchkey/react/solana': { file: 'packages/react/src/solana.ts', module: solana },
  '@latchkey/server/verify': { file: 'packages/server/src/verify.ts', module: null },
  '@latchkey/server/sdk': { file: 'packages/server/src/sdk/index.ts', module: null },
}
const NOT_MAPPED = /^(missing|not applicable)$/

/** Names a source file exports (values and types), each with the file that declares it. */
function exportsOf(file: string): Map<string, { type: boolean; declaredIn: string }> {
  const source = read(file).replace(/\/\*[\s\S]*?\*\//g, '')
  const names = new Map<string, { type: boolean; declaredIn: string }>()
  for (const [, allTypes, list = '', from] of source.matchAll(
    /export (type )?\{([^}]*)\}(?: from '([^']+)')?/g,
  )) {
    const declaredIn = from?.startsWith('.') ? join(dirname(file), from) : file
    for (const spec of list
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const type = Boolean(allTypes) || spec.startsWith('type ')
      const name = spec
        .replace(/^type /, '')
        .split(/\s+as\s+/)
        .at(-1) as string
      names.set(name, { type, declaredIn })
    }
  }
  for (const [, kind, name = ''] of source.matchAll(
    /export (?:declare )?(?:async )?(function|const|class|interface|type) (\w+)/g,
  ))
    names.set(name, { type: kind === 'interface' || kind === 'type', declaredIn: file })
  return names
}

interface Row {
  line: number
  cells: string[]
}

/** The tables whose header is exactly `header`, as rows of trimmed cells. */
function tables(header: string[]): Row[][] {
  const lines = doc.split('\n')
  const found: Row[][] = []
  for (let i = 0; i < lines.length; i++) {
    const cells = splitRow(lines[i] ?? '')
    if (cells?.join('|') !== header.join('|') || !/^\|[-| ]+\|$/.test(lines[i + 1] ?? '')) continue
    const rows: Row[] = []
    for (let j = i + 2; lines[j]?.startsWith('|'); j++)
      rows.push({ line: j + 1, cells: splitRow(lines[j] as string) ?? [] })
    found.push(rows)
  }
  return found
}

function splitRow(line: string): string[] | null {
  if (!line.startsWith('|') || !line.endsWith('|')) return null
  return line
    .slice(1, -1)
    .split('|')
    .map((cell) => cell.trim())
}

const codeSpans = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1] as string)
/** A cell that is nothing but code spans separated by commas. */
const onlyCode = (cell: string) => /^`[^`]+`(, `[^`]+`)*$/.test(cell)

/** Why `name` (`x` or `hook().member`) is not an export of `entry`, or null when it is. */
function checkName(entry: string, name: string): string | null {
  const target = ENTRIES[entry]
  if (!target) return `unknown entry ${entry}`
  const match = /^(\w+)(?:\(\)\.(\w+))?$/.exec(name)
  if (!match) return `${name} is not a name or hook().member`
  const [, base = '', member] = match
  const exported = exportsOf(target.file).get(base)
  if (!exported) return `${base} is not exported by ${entry}`
  if (target.module && !exported.type && !(base in target.module))
    return `${base} is not a runtime export of ${entry}`
  if (member) {
    const declaring = read(exported.declaredIn)
    const property = new RegExp(`(^\\s*|[{,;]\\s*)${member}\\??\\s*[(:<]`, 'm')
    if (!property.test(declaring))
      return `${member} is not a member of ${base}() (${exported.declaredIn})`
  }
  return null
}

const exportRows = tables(['Privy', 'Latchkey', 'From', 'Notes']).flat()
const configRows = tables(['Privy key', 'Latchkey key', 'Notes']).flat()

describe('docs/migrating-from-privy.md', () => {
  it('has the export and configuration tables', () => {
    expect(exportRows.length).toBeGreaterThan(150)
    expect(configRows.length).toBeGreaterThan(40)
  })

  it('names in every export row a Privy export and a real Latchkey export, or says why not', () => {
    const problems: string[] = []
    for (const { line, cells } of exportRows) {
      const [privy = '', latchkey = '', from = '', notes = ''] = cells
      const at = `line ${line}`
      if (cells.length !== 4) problems.push(`${at}: ${cells.length} cells`)
      if (codeSpans(privy).length === 0) problems.push(`${at}: no Privy name`)
      if (NOT_MAPPED.test(latchkey)) {
        if (from !== '—') problems.push(`${at}: "${latchkey}" with a From`)
        if (!notes) problems.push(`${at}: "${latchkey}" without a reason`)
        continue
      }
      if (!onlyCode(latchkey)) problems.push(`${at}: Latchkey cell is not names only: ${latchkey}`)
      const entry = codeSpans(from)[0] ?? from
      for (const name of codeSpans(latchkey)) {
        const problem = checkName(entry, name)
        if (problem) problems.push(`${at}: ${problem}`)
      }
    }
    expect(problems).toEqual([])
  })

  it('names only hooks that exist in its notes', () => {
    const problems = exportRows
      .flatMap(({ line, cells }) =>
        codeSpans(cells[3] ?? '')
          .filter((span) => /^use[A-Z]\w*(\(\)\.\w+)?$/.test(span))
          .map((span) => ({ line, span })),
      )
      .filter(
        ({ span }) =>
          checkName('@latchkey/react', span) && checkName('@latchkey/react/solana', span),
      )
      .map(({ line, span }) => `line ${line}: ${span}`)
    expect(problems).toEqual([])
  })

  it('maps every configuration key to a key of LatchkeyConfig, or says why not', () => {
    const problems: string[] = []
    for (const { line, cells } of configRows) {
      const [privy = '', latchkey = '', notes = ''] = cells
      const at = `line ${line}`
      if (cells.length !== 3) problems.push(`${at}: ${cells.length} cells`)
      if (codeSpans(privy).length !== 1) problems.push(`${at}: not one Privy key`)
      if (NOT_MAPPED.test(latchkey)) {
        if (!notes) problems.push(`${at}: "${latchkey}" without a reason`)
        continue
      }
      const [path] = codeSpans(latchkey)
      if (!path || !onlyCode(latchkey) || codeSpans(latchkey).length !== 1)
        problems.push(`${at}: Latchkey key is not one key: ${latchkey}`)
      else if (!configPathExists(path)) problems.push(`${at}: ${path} is not in LatchkeyConfig`)
    }
    expect(problems).toEqual([])
  })

  it('checks configuration keys against the real types, not anything', () => {
    expect(configPathExists('embeddedWallets.createOnLogin.solana')).toBe(true)
    expect(configPathExists('appearance.walletList')).toBe(true)
    expect(configPathExists('appearance.showWalletLoginFirst')).toBe(false)
    expect(configPathExists('embeddedWallets.ethereum.createOnLogin')).toBe(false)
    expect(checkName('@latchkey/react', 'useLatchkey().getAccessToken')).toBeNull()
    expect(checkName('@latchkey/react', 'useLatchkey().linkEmail')).not.toBeNull()
    expect(checkName('@latchkey/react', 'usePrivy')).not.toBeNull()
    expect(checkName('@latchkey/react/solana', 'useSolanaWallets')).not.toBeNull()
  })
})

// LatchkeyConfig's shape, read from the sources that declare it.
const CONFIG_SOURCES = [
  'packages/react/src/config.ts',
  'packages/react/src/config-appearance.ts',
  'packages/react/src/solana-clusters.ts',
  'packages/core/src/wallets/createWalletsOnLogin.ts',
].map((file) =>
  read(file)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, ''),
)

/** The members of an interface or a type literal's body: name → type text. */
function members(body: string): Map<string, string> {
  const out = new Map<string, string>()
  let depth = 0
  let segment = ''
  const push = () => {
    const match = /^\s*(\w+)\??\s*:\s*([\s\S]*)$/.exec(segment)
    if (match) out.set(match[1] as string, (match[2] as string).trim())
    segment = ''
  }
  for (let i = 0; i < body.length; i++) {
    const ch = body[i] as string
    if ('{(<['.includes(ch)) depth++
    else if ('})]'.includes(ch) || (ch === '>' && body[i - 1] !== '=')) depth--
    if (depth === 0 && (ch === '\n' || ch === ';')) push()
    else segment += ch
  }
  push()
  return out
}

/** The body between the brace at `open` and its match. */
function braced(text: string, open: number): string {
  let depth = 0
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++
    else if (text[i] === '}' && --depth === 0) return text.slice(open + 1, i)
  }
  throw new Error('unbalanced braces')
}

function membersOfType(type: string): Map<string, string> | null {
  const text = type.trim()
  if (text.startsWith('{')) return members(braced(text, 0))
  const partial = /^Partial<(\w+)>$/.exec(text)
  const name = partial ? partial[1] : /^\w+$/.test(text) ? text : null
  if (!name) return null
  for (const source of CONFIG_SOURCES) {
    const start = new RegExp(`interface ${name}\\b[^{]*\\{`).exec(source)
    if (start) return members(braced(source, start.index + start[0].length - 1))
  }
  return null
}

function configPathExists(path: string): boolean {
  let current = membersOfType('LatchkeyConfig')
  const keys = path.split('.')
  for (const [index, key] of keys.entries()) {
    const type = current?.get(key)
    if (type === undefined) return false
    if (index < keys.length - 1) current = membersOfType(type)
  }
  return true
}
