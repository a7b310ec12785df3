/**
 * @module
 * The docs site (docs/docs-site.md): VitePress builds docs/ with the
 * generated references into a temporary folder, as `npm run build -w site`
 * does into site/.vitepress/dist. A dead link between pages, or to a
 * repository file, fails that build. The test then holds the output to what
 * it reads on its own: the pages of docs/, the keys of `LatchkeyConfig` in
 * config.ts, the routes a fresh server documents, the links between pages.
 */
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { routes } from '@latchkey/protocol'
import { connectSqlite, createLatchkeyServer, silentLogger } from '@latchkey/server'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { run } from './run.ts'

const root = fileURLToPath(new URL('../..', import.meta.url))
const vitepress = join(root, 'node_modules/vitepress/bin/vitepress.js')
const docPages = readdirSync(join(root, 'docs')).filter((name) => name.endsWith('.md'))

let out: string
const page = (path: string) => readFileSync(join(out, path), 'utf8')

beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), 'latchkey-docs-site-'))
  const build = await run(process.execPath, [vitepress, 'build', 'site', '--outDir', out], {
    cwd: root,
  })
  console.log(`docs site built in ${build.seconds.toFixed(1)} s`)
})
afterAll(() => (out ? rm(out, { recursive: true, force: true }) : undefined))

/**
 * The top-level keys of `export interface LatchkeyConfig { … }`, read from the
 * source text (comments dropped, braces counted), not with the compiler API
 * the generator uses.
 */
function latchkeyConfigKeys(): string[] {
  const source = readFileSync(join(root, 'packages/react/src/config.ts'), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/\/\/.*$/gm, '')
  const start = source.indexOf('{', source.indexOf('export interface LatchkeyConfig'))
  // The body's own level: what nested `{ … }` types hold is left out.
  let body = ''
  let depth = 0
  for (const char of source.slice(start)) {
    if (char === '{') depth++
    else if (char === '}' && --depth === 0) break
    else if (depth === 1) body += char
  }
  return [...body.matchAll(/(?:^|[;\n])\s*([A-Za-z_$][\w$]*)\??:/g)].map((m) => m[1] as string)
}

/** Every `href` of a built page to a page of the site (itself for `#…`), with its hash. */
function pageLinks(file: string): Array<{ target: string; hash: string }> {
  const links = page(file).matchAll(/href="((?:\.{1,2})?\/[^"#]*\.html)?(#[^"]*)?"/g)
  return [...links]
    .filter(([, href, hash]) => href || (hash && hash.length > 1))
    .map(([, href = '', hash = '']) => ({
      target: !href
        ? file
        : href.startsWith('/')
          ? href.slice(1)
          : relative(out, resolve(join(out, dirname(file)), href)),
      hash: decodeURIComponent(hash.slice(1)),
    }))
}

describe('the docs site', () => {
  it('has a page for every docs/*.md and the generated references', () => {
    expect(docPages.length).toBeGreaterThan(30)
    for (const name of [...docPages, 'reference/configuration.md', 'reference/http-api.md'])
      expect(existsSync(join(out, name.replace(/\.md$/, '.html'))), name).toBe(true)
  })

  it('names every top-level key of LatchkeyConfig on the configuration reference, with its JSDoc', () => {
    const keys = latchkeyConfigKeys()
    expect(keys).toEqual(expect.arrayContaining(['appearance', 'loginMethods', 'embeddedWallets']))
    const html = page('reference/configuration.html')
    for (const key of keys) expect(html, key).toContain(`id="client-${key}"`)
    // The JSDoc of `disablePlusEmails` (spec 01 §5) and a nested key of `appearance`.
    expect(html).toContain('addresses (spec 01 §5)')
    expect(html).toContain('loginGroupPriority?: ')
    expect(html).toContain('id="server-databaseUrl"')
  })

  it('lists every route of the OpenAPI document the server serves on the HTTP API reference', async () => {
    const server = await createLatchkeyServer({
      db: connectSqlite(':memory:'),
      ownsDb: true,
      masterKey: randomBytes(32),
      logger: silentLogger,
      purgeIntervalMs: 0,
    })
    const doc = (await (await server.app.request(routes.openapi)).json()) as {
      paths: Record<string, Record<string, unknown>>
    }
    await server.close()
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
    )
    expect(documented.length).toBeGreaterThan(50)
    const html = page('reference/http-api.html')
    for (const route of documented) expect(html, route).toContain(`<code>${route}</code>`)
    expect(html.match(/<h3 /g)).toHaveLength(documented.length)
  })

  it('links to pages and sections that were built, and to the repository for files outside docs/', () => {
    const links = readdirSync(out, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.html') && !file.startsWith('assets'))
      .flatMap((file) => pageLinks(file).map((link) => ({ ...link, from: file })))
    // docs/client.md links to mfa.md#in-the-browser.
    expect(links).toContainEqual({
      from: 'client.html',
      target: 'mfa.html',
      hash: 'in-the-browser',
    })
    expect(links.length).toBeGreaterThan(200)
    // VitePress checks that a linked page exists; the sections linked to are checked here.
    const ids = new Map<string, Set<string>>()
    const idsOf = (target: string) =>
      ids.get(target) ??
      ids
        .set(
          target,
          new Set([...page(target).matchAll(/\bid="([^"]+)"/g)].map((m) => m[1] as string)),
        )
        .get(target)
    for (const link of links) {
      const where = `${link.from} → ${link.target}#${link.hash}`
      expect(existsSync(join(out, link.target)), where).toBe(true)
      if (link.hash) expect(idsOf(link.target)?.has(link.hash), where).toBe(true)
    }
    expect(page('migrating-from-privy.html')).toMatch(
      /href="https:\/\/github\.com\/[^"]+\/blob\/main\/examples\/from-privy\/PORTING\.md"/,
    )
  })
})
