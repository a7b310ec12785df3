import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/**
 * Splits the server's test files into those that touch storage (they reach
 * `db/connect.ts` through their value imports: a test instance, a server, a
 * database) and those that do not. CI runs the first kind on SQLite and on
 * PostgreSQL, the second once. Type-only imports do not count: they vanish
 * at run time.
 */
export function splitServerTests(root: string): { storage: string[]; pure: string[] } {
  const serverSrc = join(root, 'packages/server/src')
  const target = join(serverSrc, 'db/connect.ts')
  const memo = new Map<string, boolean>()

  const reaches = (file: string, seen: Set<string>): boolean => {
    const known = memo.get(file)
    if (known !== undefined) return known
    if (file === target) return true
    if (seen.has(file)) return false
    seen.add(file)
    let found = false
    for (const spec of valueImports(readFileSync(file, 'utf8'))) {
      if (!spec.startsWith('.')) continue
      const next = resolve(dirname(file), spec)
      if (!/\.tsx?$/.test(next)) continue
      if (reaches(next, seen)) {
        found = true
        break
      }
    }
    // A file on an import cycle that has not found the target yet is not memoised.
    if (found || !seen.has(file)) memo.set(file, found)
    return found
  }

  const storage: string[] = []
  const pure: string[] = []
  for (const file of listTests(serverSrc)) {
    const path = relative(root, file)
    ;(reaches(file, new Set()) ? storage : pure).push(path)
  }
  return { storage, pure }
}

/** Relative specifiers of `import … from`, `export … from` and `import()` that carry values. */
function valueImports(source: string): string[] {
  const specs: string[] = []
  const statement = /(?:^|\n)\s*(import|export)\s+([^'";]*?)\s*from\s*'([^']+)'/g
  for (const match of source.matchAll(statement)) {
    const clause = match[2] ?? ''
    if (/^type\s/.test(clause)) continue
    specs.push(match[3] ?? '')
  }
  for (const match of source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) specs.push(match[1] ?? '')
  for (const match of source.matchAll(/(?:^|\n)\s*import\s+'([^']+)'/g)) specs.push(match[1] ?? '')
  return specs
}

function listTests(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listTests(path))
    else if (/\.test\.ts$/.test(entry.name)) out.push(path)
  }
  return out.sort()
}

/** Test files under `dirs` that replace modules (`vi.mock`): they need a fresh module graph each. */
export function filesThatMockModules(root: string, dirs: string[]): string[] {
  const out: string[] = []
  for (const dir of dirs) {
    for (const file of listTestsTsx(join(root, dir))) {
      if (/\bvi\.(do)?mock\(/.test(readFileSync(file, 'utf8'))) out.push(relative(root, file))
    }
  }
  return out
}

function listTestsTsx(dir: string): string[] {
  const out: string[] = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...listTestsTsx(path))
    else if (/\.test\.tsx?$/.test(entry.name)) out.push(path)
  }
  return out
}
