#!/usr/bin/env node
// `npm run build:packages` (the second half of `npm run build`): compiles the
// published packages — protocol, core, react, server — into each package's
// dist/ (ES modules, .d.ts, source maps and declaration maps) with
// `tsc --build` on their tsconfig.build.json, in dependency order. The build
// is incremental: a package whose sources did not change is not compiled
// again (its build state, dist/*.tsbuildinfo, is deleted with dist/).
//
// After tsc:
//   - relative `.ts`/`.tsx` specifiers in the emitted .d.ts become `.js`:
//     rewriteRelativeImportExtensions rewrites them in the JavaScript only
//     (microsoft/TypeScript#61037);
//   - outputs whose source file is gone are deleted, so an incremental build
//     never ships a stale module;
//   - the server gets the built enclave pages (packages/enclave/dist/, from
//     `npm run build:enclave`) in dist/assets/, where an installed server
//     serves them from (packages/server/src/enclave/page.ts).
//   node scripts/build-packages.mjs
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))
const tsc = join(root, 'node_modules/typescript/bin/tsc')
const PACKAGES = ['protocol', 'core', 'react', 'wagmi', 'server']
const ENCLAVE_PAGES = ['enclave.js', 'export.js']
/** A relative module specifier that names a TypeScript source (not a .d.ts). */
const TS_SPECIFIER = /(['"])(\.{1,2}\/[^'"\n]*?)(?<!\.d)\.tsx?\1/g

const started = performance.now()
// protocol first; then react (tsc -b builds core on the way, through its
// project reference) beside the server: two compilers, one per core; wagmi
// after react (it references react's build).
await build('protocol')
await Promise.all([build('react').then(() => build('wagmi')), build('server')])
for (const name of PACKAGES) {
  const dist = join(root, 'packages', name, 'dist')
  pruneStaleOutputs(dist, join(root, 'packages', name, 'src'))
  await rewriteDeclarationSpecifiers(dist)
}
copyEnclavePages()
console.log(
  `Built ${PACKAGES.map((name) => `@latchkey/${name}`).join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s`,
)

function build(name) {
  const project = join(root, 'packages', name, 'tsconfig.build.json')
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsc, '--build', project], { stdio: 'inherit' })
    child.once('error', reject)
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`tsc --build ${relative(root, project)} failed`)),
    )
  })
}

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else yield path
  }
}

function pruneStaleOutputs(dist, src) {
  for (const file of walk(dist)) {
    const path = relative(dist, file)
    const source = /^(.*)\.(?:d\.ts|d\.ts\.map|js|js\.map)$/.exec(path)?.[1]
    if (source === undefined || path.startsWith('assets/')) continue
    if (!existsSync(join(src, `${source}.ts`)) && !existsSync(join(src, `${source}.tsx`)))
      rmSync(file)
  }
}

async function rewriteDeclarationSpecifiers(dist) {
  const writes = []
  for (const file of walk(dist)) {
    if (!file.endsWith('.d.ts')) continue
    const text = readFileSync(file, 'utf8')
    const rewritten = text.replace(TS_SPECIFIER, '$1$2.js$1')
    if (rewritten !== text) writes.push(writeFile(file, rewritten))
  }
  await Promise.all(writes)
}

function copyEnclavePages() {
  const from = join(root, 'packages/enclave/dist')
  const to = join(root, 'packages/server/dist/assets')
  mkdirSync(to, { recursive: true })
  for (const page of ENCLAVE_PAGES) {
    if (!existsSync(join(from, page)))
      throw new Error(
        `packages/enclave/dist/${page} is missing: run \`npm run build:enclave\` first (\`npm run build\` runs both)`,
      )
    copyFileSync(join(from, page), join(to, page))
  }
}
