import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { expect, it } from 'vitest'

// `@latchkey/server/sdk` is for app backends that only talk to a Latchkey
// server: importing it must not load the server's storage (Kysely, SQLite,
// PostgreSQL, Redis) nor anything of the server itself.
const here = dirname(fileURLToPath(import.meta.url))
const ALLOWED_PACKAGES = ['@latchkey/protocol', 'jose', 'node:crypto']

/** Relative and bare specifiers of the value imports of a file (type-only ones vanish at run time). */
function valueImports(source: string): string[] {
  const specs: string[] = []
  for (const match of source.matchAll(
    /(?:^|\n)\s*(?:import|export)\s+([^'";]*?)\s*from\s*'([^']+)'/g,
  ))
    if (!/^type\s/.test(match[1] ?? '')) specs.push(match[2] ?? '')
  for (const match of source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)) specs.push(match[1] ?? '')
  return specs
}

it('the SDK entry reaches no database driver, nor any server module beyond verify and webhook verify', () => {
  const files = new Set<string>()
  const packages = new Set<string>()
  const visit = (file: string) => {
    if (files.has(file)) return
    files.add(file)
    for (const spec of valueImports(readFileSync(file, 'utf8'))) {
      if (spec.startsWith('.')) visit(resolve(dirname(file), spec))
      else
        packages.add(
          spec
            .split('/')
            .slice(0, spec.startsWith('@') ? 2 : 1)
            .join('/'),
        )
    }
  }
  visit(join(here, 'index.ts'))
  const relative = [...files].map((f) => f.slice(join(here, '..').length + 1)).sort()
  expect(relative).toEqual([
    'sdk/client.ts',
    'sdk/errors.ts',
    'sdk/index.ts',
    'sdk/wallets.ts',
    'verify.ts',
    'webhooks/signature.ts',
    'webhooks/verify.ts',
  ])
  expect([...packages].filter((name) => !ALLOWED_PACKAGES.includes(name))).toEqual([])
})
