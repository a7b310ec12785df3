// Where the bundle's bytes come from: builds bench/bundle/sdk as bench/bundle.mjs
// does and prints each chunk (gzip) with its largest packages (rendered bytes,
// before gzip). `node bench/bundle-breakdown.mjs [--all] [--modules REGEX]`:
// `--all` lists every package, `--modules` every module of the chunks whose
// file name matches (e.g. `--modules '^assets/index-'` for the entry).
import { mkdtemp } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { gzipSync } from 'node:zlib'
import react from '@vitejs/plugin-react'
import { build, defaultClientConditions } from 'vite'

const here = dirname(fileURLToPath(import.meta.url))
const showAll = process.argv.includes('--all')
const modulesFlag = process.argv.indexOf('--modules')
const modulesOf = modulesFlag > 0 ? new RegExp(process.argv[modulesFlag + 1]) : null

/** `node_modules/@scope/name/…` → `@scope/name`; workspace sources → `packages/x`. */
function ownerOf(id) {
  const parts = id.split('node_modules/')
  const tail = parts[parts.length - 1]
  if (parts.length > 1) {
    const seg = tail.split('/')
    return seg[0].startsWith('@') ? `${seg[0]}/${seg[1]}` : seg[0]
  }
  const m = id.match(/packages\/([^/]+)\/src\/(.+?)(?:\/|$)/)
  return m ? `packages/${m[1]}/${m[2]}` : id
}

const outDir = await mkdtemp(join(tmpdir(), 'latchkey-breakdown-'))
const result = await build({
  root: join(here, 'bundle', 'sdk'),
  logLevel: 'silent',
  plugins: [react()],
  resolve: { conditions: ['latchkey-source', ...defaultClientConditions] },
  build: { outDir, emptyOutDir: true, modulePreload: { polyfill: false } },
})
const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output)
const chunks = outputs
  .filter((o) => o.type === 'chunk')
  .map((c) => ({ c, gz: gzipSync(c.code, { level: 9 }).length }))
  .sort((a, b) => b.gz - a.gz)
let total = 0
for (const { c, gz } of chunks) {
  total += gz
  const owners = new Map()
  for (const [id, m] of Object.entries(c.modules))
    owners.set(ownerOf(id), (owners.get(ownerOf(id)) ?? 0) + m.renderedLength)
  const top = [...owners].sort((a, b) => b[1] - a[1]).slice(0, showAll ? 40 : 6)
  console.log(
    `${(gz / 1024).toFixed(1).padStart(7)} KB gz  ${c.fileName}${c.isEntry ? ' (entry)' : ''}`,
  )
  for (const [owner, bytes] of top)
    console.log(`              ${(bytes / 1024).toFixed(1).padStart(7)} KB  ${owner}`)
  if (!modulesOf?.test(c.fileName)) continue
  const modules = Object.entries(c.modules).sort(
    (a, b) => b[1].renderedLength - a[1].renderedLength,
  )
  for (const [id, m] of modules)
    console.log(
      `                ${String(m.renderedLength).padStart(8)} B  ${id.replace(/.*node_modules\//, '')}`,
    )
}
console.log(`${(total / 1024).toFixed(1).padStart(7)} KB gz  all chunks`)
